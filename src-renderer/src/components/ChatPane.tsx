// ChatPane: the conversation of one task (ChatMessageFeed, with the live generation last) above its
// ChatComposerPanel (approval cards and the composer).
import { useShallow } from 'zustand/react/shallow';
import { useT } from '../i18n';
import type { JobStream } from '../store/job-stream';
import { useAppStore } from '../store/store';
import { ChatComposerPanel } from './ChatComposerPanel';
import { ChatMessageFeed } from './ChatMessageFeed';
import { openQuestion } from './composer-mode';

export function ChatPane({ taskId, stream }: { taskId: string; stream: JobStream | null }) {
  const { comments, jobs, dispositions } = useAppStore(
    useShallow((s) => ({
      comments: s.detail?.comments ?? NO_COMMENTS,
      jobs: s.detail?.jobs ?? NO_JOBS,
      dispositions: s.dispositions,
    })),
  );
  const t = useT();
  const question = openQuestion(jobs.at(-1), comments);
  return (
    <section className="chat-pane" data-testid="chat-pane" aria-label={t('chat.label')}>
      <ChatMessageFeed
        comments={comments}
        dispositions={dispositions}
        stream={stream}
        openQuestionId={question?.id ?? null}
      />
      <ChatComposerPanel taskId={taskId} jobs={jobs} comments={comments} />
    </section>
  );
}

const NO_COMMENTS: never[] = [];
const NO_JOBS: never[] = [];

// ChatPane: the conversation of one task (ChatMessageFeed: comments under their Invoke headers, the live generation
// last) above the cards of the lessons its Reflection proposed and its ChatComposerPanel (approval cards, composer).
import { useDeferredValue } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useJobStreamTurns } from '../hooks/useJobStream';
import { useT } from '../hooks/useT';
import { selectDetail } from '../store/entity-selectors';
import { useAppStore } from '../store/store';
import { ChatComposerPanel } from './ChatComposerPanel';
import { ChatMessageFeed, type ChatMessageFeedProps } from './ChatMessageFeed';
import { openQuestion } from './composer-mode';
import { LessonCards } from './LessonCards';

/** The generation's text is read by the feed alone, see LiveFeed. */
export function ChatPane({ taskId }: { taskId: string }) {
  const { comments, steps, olderCount, olderLoad, loadOlderComments, jobs, dispositions, invokes } = useAppStore(
    useShallow((s) => ({
      comments: selectDetail(s)?.comments ?? NO_COMMENTS,
      steps: selectDetail(s)?.steps ?? NO_STEPS,
      olderCount: selectDetail(s)?.olderCount ?? 0,
      olderLoad: selectDetail(s)?.olderLoad ?? 'idle',
      loadOlderComments: s.loadOlderComments,
      jobs: selectDetail(s)?.jobs ?? NO_JOBS,
      dispositions: s.dispositions,
      invokes: (s.usage?.taskId === taskId ? s.usage.data?.invokes : undefined) ?? NO_INVOKES,
    })),
  );
  const t = useT();
  const question = openQuestion(jobs.at(-1), comments);
  return (
    <section className="chat-pane" data-testid="chat-pane" aria-label={t('chat.label')}>
      <LiveFeed
        taskId={taskId}
        comments={comments}
        steps={steps}
        dispositions={dispositions}
        openQuestionId={question?.id ?? null}
        invokes={invokes}
        olderCount={olderCount}
        olderLoad={olderLoad}
        onLoadOlder={loadOlderComments}
      />
      <LessonCards taskId={taskId} />
      <ChatComposerPanel taskId={taskId} jobs={jobs} comments={comments} />
    </section>
  );
}

/**
 * The feed with the live generation, read here: a streamed delta re-renders the feed, not the pane and composer. The
 * feed renders the deferred stream, at a priority React may interrupt and skip ahead: when deltas come faster than
 * the feed renders, it renders the latest one instead of each in turn, and typing or scrolling is never held up.
 */
function LiveFeed({ taskId, steps, ...props }: Omit<ChatMessageFeedProps, 'stream'> & { taskId: string }) {
  const stream = useDeferredValue(useJobStreamTurns(taskId));
  // The steps with it: a recorded step takes its streamed turn's place in the same (interruptible) render.
  const deferredSteps = useDeferredValue(steps);
  return <ChatMessageFeed {...props} steps={deferredSteps} stream={stream} />;
}

const NO_COMMENTS: never[] = [];
const NO_STEPS: never[] = [];
const NO_JOBS: never[] = [];
const NO_INVOKES: never[] = [];

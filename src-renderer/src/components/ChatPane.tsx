// ChatPane: the conversation of one task (ChatMessageFeed, with the live generation last) above its ChatComposer.
import { useShallow } from 'zustand/react/shallow';
import type { JobStream } from '../store/job-stream';
import { useAppStore } from '../store/store';
import { ChatComposer } from './ChatComposer';
import { ChatMessageFeed } from './ChatMessageFeed';

export function ChatPane({ taskId, stream }: { taskId: string; stream: JobStream | null }) {
  const { comments, dispositions } = useAppStore(
    useShallow((s) => ({ comments: s.detail?.comments ?? NO_COMMENTS, dispositions: s.dispositions })),
  );
  return (
    <section className="chat-pane" data-testid="chat-pane" aria-label="Chat">
      <ChatMessageFeed comments={comments} dispositions={dispositions} stream={stream} />
      <ChatComposer key={taskId} taskId={taskId} />
    </section>
  );
}

const NO_COMMENTS: never[] = [];

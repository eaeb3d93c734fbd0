// ChatPane: the conversation of one task (ChatMessageFeed) above its ChatComposer.
import { useShallow } from 'zustand/react/shallow';
import { useAppStore } from '../store/store';
import { ChatComposer } from './ChatComposer';
import { ChatMessageFeed } from './ChatMessageFeed';

export function ChatPane({ taskId }: { taskId: string }) {
  const { comments, dispositions } = useAppStore(
    useShallow((s) => ({ comments: s.detail?.comments ?? NO_COMMENTS, dispositions: s.dispositions })),
  );
  return (
    <section className="chat-pane" data-testid="chat-pane" aria-label="Chat">
      <ChatMessageFeed comments={comments} dispositions={dispositions} />
      <ChatComposer key={taskId} taskId={taskId} />
    </section>
  );
}

const NO_COMMENTS: never[] = [];

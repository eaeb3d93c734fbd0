// The task's comments in order, oldest first, following the newest one as it arrives.
import { useEffect, useRef } from 'react';
import type { Comment } from '../../../src-shared/entities';
import type { Disposition } from '../store/detail-slice';
import { ChatMessage } from './ChatMessage';

interface Props {
  comments: Comment[];
  dispositions: Record<string, Disposition>;
}

export function ChatMessageFeed({ comments, dispositions }: Props) {
  const listRef = useRef<HTMLOListElement>(null);
  const lastId = comments.at(-1)?.id;

  useEffect(() => {
    const list = listRef.current;
    if (list && lastId) list.scrollTop = list.scrollHeight;
  }, [lastId]);

  if (comments.length === 0) {
    return <p className="notice feed-empty">No messages yet.</p>;
  }
  return (
    <ol className="feed" ref={listRef} data-testid="chat-feed" aria-label="Conversation">
      {comments.map((c) => (
        <ChatMessage key={c.id} comment={c} disposition={dispositions[c.id]} />
      ))}
    </ol>
  );
}

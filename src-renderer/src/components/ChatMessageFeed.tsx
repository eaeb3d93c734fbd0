// The task's comments in order, oldest first, then the generation in progress; follows the newest as it arrives.
import { useEffect, useRef } from 'react';
import type { Comment } from '../../../src-shared/entities';
import { useT } from '../i18n';
import type { Disposition } from '../store/detail-slice';
import type { JobStream } from '../store/job-stream';
import { ChatMessage } from './ChatMessage';
import { JobStreamMessage } from './JobStreamMessage';

const FOLLOW_PX = 120;

interface Props {
  comments: Comment[];
  dispositions: Record<string, Disposition>;
  /** The live generation of the task's job, shown after the persisted comments until they replace it. */
  stream?: JobStream | null;
  /** The question the waiting job asked, shown as the one to answer (P7.02). */
  openQuestionId?: string | null;
}

export function ChatMessageFeed({ comments, dispositions, stream, openQuestionId = null }: Props) {
  const listRef = useRef<HTMLOListElement>(null);
  const lastId = comments.at(-1)?.id;
  const t = useT();

  useEffect(() => {
    const list = listRef.current;
    if (list && lastId) list.scrollTop = list.scrollHeight;
  }, [lastId]);

  // Streamed text follows the bottom only while the reader is there, so scrolling up to read is not undone.
  const following = useRef(true);
  const onScroll = () => {
    const list = listRef.current;
    if (list) following.current = list.scrollHeight - list.scrollTop - list.clientHeight < FOLLOW_PX;
  };
  useEffect(() => {
    const list = listRef.current;
    if (list && stream && following.current) list.scrollTop = list.scrollHeight;
  }, [stream]);

  if (comments.length === 0 && !stream) {
    return <p className="notice feed-empty">{t('chat.empty')}</p>;
  }
  return (
    <ol className="feed" ref={listRef} onScroll={onScroll} data-testid="chat-feed" aria-label={t('chat.conversation')}>
      {comments.map((c) => (
        <ChatMessage key={c.id} comment={c} disposition={dispositions[c.id]} open={c.id === openQuestionId} />
      ))}
      {stream ? <JobStreamMessage stream={stream} /> : null}
    </ol>
  );
}

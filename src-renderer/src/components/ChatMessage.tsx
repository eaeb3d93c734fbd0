// One comment of the conversation; its kind and author set its look, so an instruction, a question, a result or an
// error never look alike.
import type { Comment, CommentKind } from '../../../src-shared/entities';
import type { Disposition } from '../store/detail-slice';
import { formatTime } from './format';
import { Markdown } from './Markdown';

const KIND_LABELS: Record<CommentKind, string> = {
  instruction: 'Instruction',
  comment: 'Comment',
  interjection: 'Interjection',
  question: 'Question',
  answer: 'Answer',
  result: 'Result',
  handoff: 'Handoff',
  error: 'Error',
};

const AUTHOR_LABELS: Record<Comment['author'], string> = { user: 'You', agent: 'Agent', system: 'MAESTRO' };

export const DISPOSITION_LABELS: Record<Disposition, string> = {
  interjection: 'delivered to the running job as an interjection',
  reused_job: 'added to the queued job',
  followup_job: 'started a new job',
};

interface Props {
  comment: Comment;
  disposition?: Disposition;
  /** A question that waits for the user's answer: shown prominently. */
  open?: boolean;
}

export function ChatMessage({ comment, disposition, open = false }: Props) {
  return (
    <li
      className={`message message-${comment.kind} message-from-${comment.author}${open ? ' message-open' : ''}`}
      data-open={open ? 'true' : undefined}
      aria-current={open ? 'true' : undefined}
      data-testid="chat-message"
      data-kind={comment.kind}
      data-author={comment.author}
      data-comment-id={comment.id}
    >
      <header className="message-header">
        <span className="message-kind" data-testid="message-kind">
          {KIND_LABELS[comment.kind]}
        </span>
        <span className="message-author">{AUTHOR_LABELS[comment.author]}</span>
        {open ? (
          <span className="message-awaiting" data-testid="message-awaiting">
            waits for your answer
          </span>
        ) : null}
        <time dateTime={comment.createdAt}>{formatTime(comment.createdAt)}</time>
      </header>
      <div className="message-body" data-testid="message-body">
        <Markdown text={comment.body} />
      </div>
      {disposition ? (
        <footer className="message-disposition" data-testid="message-disposition" data-disposition={disposition}>
          {DISPOSITION_LABELS[disposition]}
        </footer>
      ) : null}
    </li>
  );
}

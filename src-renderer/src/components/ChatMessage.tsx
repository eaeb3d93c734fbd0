// One comment of the conversation; its kind and author set its look, so an instruction, a question, a result or an
// error never look alike. An instruction shows its attached files, an open question its quick replies, a result the
// workspace commit its job made (P2.21). Memoized: a row of the feed re-renders only when its own comment changes.
import { memo } from 'react';
import type { Comment } from '../../../src-shared/entities';
import { useLocale, useT } from '../hooks/useT';
import type { Disposition } from '../store/detail-slice';
import { formatTime } from './format';
import { InstructionAttachments } from './InstructionAttachments';
import { JobCommit } from './JobCommit';
import { Markdown } from './Markdown';
import { noticeHasDetail, noticeText } from './notice-text';
import { ErrorComment } from './OutcomeNotice';
import { QuickReplies } from './QuickReplies';

interface Props {
  comment: Comment;
  disposition?: Disposition;
  /** A question that waits for the user's answer: shown prominently. */
  open?: boolean;
}

export const ChatMessage = memo(function ChatMessage({ comment, disposition, open = false }: Props) {
  const t = useT();
  const locale = useLocale();
  return (
    <article
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
          {t(`chat.kind.${comment.kind}`)}
        </span>
        <span className="message-author">{t(`chat.author.${comment.author}`)}</span>
        {open ? (
          <span className="message-awaiting" data-testid="message-awaiting">
            {t('chat.awaiting')}
          </span>
        ) : null}
        <time dateTime={comment.createdAt}>{formatTime(comment.createdAt, locale)}</time>
      </header>
      <div className="message-body" data-testid="message-body">
        {comment.kind === 'error' ? (
          <ErrorComment comment={comment} />
        ) : comment.notice ? (
          <>
            <p>{noticeText(t, comment)}</p>
            {noticeHasDetail(comment) ? (
              <details className="job-error-detail">
                <summary>{t('job.error.details')}</summary>
                <pre className="step-pre" data-testid="notice-detail">
                  {comment.body}
                </pre>
              </details>
            ) : null}
          </>
        ) : (
          <Markdown text={comment.body} />
        )}
      </div>
      {comment.attachments?.length ? (
        <InstructionAttachments taskId={comment.taskId} attachments={comment.attachments} />
      ) : null}
      {open && comment.choices?.length ? <QuickReplies taskId={comment.taskId} choices={comment.choices} /> : null}
      {comment.kind === 'result' && comment.jobId ? <JobCommit jobId={comment.jobId} /> : null}
      {disposition ? (
        <footer className="message-disposition" data-testid="message-disposition" data-disposition={disposition}>
          {t(`chat.disposition.${disposition}`)}
        </footer>
      ) : null}
    </article>
  );
});

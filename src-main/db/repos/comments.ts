// Repository of the comments table, including the interjections still waiting for delivery to a running job.

import type { AttachmentInfo, Comment, CommentAuthor, CommentKind, CommentNotice } from '../../../src-shared/entities';
import { iso, newId } from '../ids';
import type { SqlDatabase } from '../sql';

export interface CommentRow {
  id: string;
  task_id: string;
  job_id: string | null;
  author: CommentAuthor;
  kind: CommentKind;
  body: string;
  created_at: number;
  delivered_at: number | null;
  choices_json: string | null;
  attachments_json: string | null;
  notice_json: string | null;
}

export const rowToComment = (r: CommentRow): Comment => ({
  id: r.id,
  taskId: r.task_id,
  jobId: r.job_id,
  author: r.author,
  kind: r.kind,
  body: r.body,
  createdAt: iso(r.created_at),
  // Written only by insert below, from checked lists; absent rather than null so older callers see no change.
  ...(r.choices_json === null ? {} : { choices: JSON.parse(r.choices_json) as string[] }),
  ...(r.attachments_json === null ? {} : { attachments: JSON.parse(r.attachments_json) as AttachmentInfo[] }),
  ...(r.notice_json === null ? {} : { notice: JSON.parse(r.notice_json) as CommentNotice }),
});

export interface NewComment {
  taskId: string;
  jobId: string | null;
  author: CommentAuthor;
  kind: CommentKind;
  body: string;
  /** A question's quick replies (already checked: engine/question-choices.ts); empty or absent → none. */
  choices?: readonly string[];
  /** An instruction's attached files. */
  attachments?: readonly AttachmentInfo[];
  /** A system comment's words as a code, for the UI (the body says the same in English). */
  notice?: CommentNotice;
}

const jsonList = (list: readonly unknown[] | undefined) => (list && list.length > 0 ? JSON.stringify(list) : null);

export function createCommentsRepo(db: SqlDatabase) {
  const insert = db.prepare(
    `INSERT INTO comments (id, task_id, job_id, author, kind, body, created_at, choices_json, attachments_json, notice_json)
     VALUES (@id, @taskId, @jobId, @author, @kind, @body, @createdAt, @choices, @attachments, @notice) RETURNING *`,
  );
  const byTask = db.prepare<[string], CommentRow>(
    'SELECT * FROM comments WHERE task_id = ? ORDER BY created_at, rowid',
  );
  const byJob = db.prepare<[string], CommentRow>('SELECT * FROM comments WHERE job_id = ? ORDER BY created_at, rowid');
  const undelivered = db.prepare<[string], CommentRow>(
    `SELECT * FROM comments WHERE job_id = ? AND kind = 'interjection' AND delivered_at IS NULL ORDER BY created_at, rowid`,
  );
  const moveUndelivered = db.prepare<[string, string]>(
    `UPDATE comments SET job_id = ? WHERE job_id = ? AND kind = 'interjection' AND delivered_at IS NULL`,
  );
  const markDelivered = db.prepare<[number, string]>(
    'UPDATE comments SET delivered_at = ? WHERE id = ? AND delivered_at IS NULL',
  );

  return {
    insert(comment: NewComment, now = Date.now()): Comment {
      const { choices, attachments, notice, ...fields } = comment;
      const row = insert.get({
        ...fields,
        id: newId('cmt'),
        createdAt: now,
        choices: jsonList(choices),
        attachments: jsonList(attachments),
        notice: notice ? JSON.stringify(notice) : null,
      });
      return rowToComment(row as CommentRow);
    },
    listForTask(taskId: string): Comment[] {
      return byTask.all(taskId).map(rowToComment);
    },
    listForJob(jobId: string): Comment[] {
      return byJob.all(jobId).map(rowToComment);
    },
    /** Interjections of a job not yet handed to the model, in arrival order. */
    undeliveredInterjections(jobId: string): Comment[] {
      return undelivered.all(jobId).map(rowToComment);
    },
    /** Hands a job's undelivered interjections to another job (the one that will run next); returns how many. */
    moveUndelivered(fromJobId: string, toJobId: string): number {
      return moveUndelivered.run(toJobId, fromJobId).changes;
    },
    /** Compare-and-set: true only for the caller that marks it first, so no interjection is delivered twice. */
    markDelivered(id: string, now = Date.now()): boolean {
      return markDelivered.run(now, id).changes === 1;
    },
  };
}
export type CommentsRepo = ReturnType<typeof createCommentsRepo>;

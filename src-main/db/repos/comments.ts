// Repository of the comments table, including the interjections still waiting for delivery to a running job.
import type { Database } from 'better-sqlite3';
import type { Comment, CommentAuthor, CommentKind } from '../../../src-shared/entities';
import { iso, newId } from '../ids';

interface CommentRow {
  id: string;
  task_id: string;
  job_id: string | null;
  author: CommentAuthor;
  kind: CommentKind;
  body: string;
  created_at: number;
  delivered_at: number | null;
}

/** A row with its rowid, the tie-break of comments created in the same millisecond. */
type PagedRow = CommentRow & { seq: number };

const rowToComment = (r: CommentRow): Comment => ({
  id: r.id,
  taskId: r.task_id,
  jobId: r.job_id,
  author: r.author,
  kind: r.kind,
  body: r.body,
  createdAt: iso(r.created_at),
});

/** A page of a task's comments, oldest first, and how many of the task's comments are older than the page. */
export interface CommentPage {
  comments: Comment[];
  olderCount: number;
}

/**
 * The page statements walk comments_by_task (task_id, created_at, and the rowid every index ends with) backwards from
 * a point, so a page costs its own rows whatever the task's length, and the count reads that index alone. Exported
 * for the test that checks their query plans.
 */
export const PAGE_SQL = {
  latest: 'SELECT rowid AS seq, * FROM comments WHERE task_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?',
  before: `SELECT rowid AS seq, * FROM comments WHERE task_id = ? AND (created_at, rowid) < (?, ?)
    ORDER BY created_at DESC, rowid DESC LIMIT ?`,
  countBefore: 'SELECT COUNT(*) FROM comments WHERE task_id = ? AND (created_at, rowid) < (?, ?)',
} as const;

export interface NewComment {
  taskId: string;
  jobId: string | null;
  author: CommentAuthor;
  kind: CommentKind;
  body: string;
}

export function createCommentsRepo(db: Database) {
  const insert = db.prepare(
    `INSERT INTO comments (id, task_id, job_id, author, kind, body, created_at)
     VALUES (@id, @taskId, @jobId, @author, @kind, @body, @createdAt) RETURNING *`,
  );
  const byTask = db.prepare<[string], CommentRow>(
    'SELECT * FROM comments WHERE task_id = ? ORDER BY created_at, rowid',
  );
  const latest = db.prepare<[string, number], PagedRow>(PAGE_SQL.latest);
  const before = db.prepare<[string, number, number, number], PagedRow>(PAGE_SQL.before);
  const countBefore = db.prepare<[string, number, number], number>(PAGE_SQL.countBefore).pluck();
  const anchor = db.prepare<[string], PagedRow>('SELECT rowid AS seq, * FROM comments WHERE id = ?');
  /** Newest-first rows as a page, oldest first, with the count of the task's comments older than it. */
  const toPage = (taskId: string, newestFirst: PagedRow[]): CommentPage => {
    const oldest = newestFirst.at(-1);
    return {
      comments: newestFirst.reverse().map(rowToComment),
      olderCount: oldest ? (countBefore.get(taskId, oldest.created_at, oldest.seq) as number) : 0,
    };
  };
  // Each page is read in one transaction, so its count agrees with its rows while another connection writes.
  const latestPage = db.transaction((taskId: string, limit: number) => toPage(taskId, latest.all(taskId, limit)));
  const pageBefore = db.transaction((taskId: string, commentId: string, limit: number): CommentPage | null => {
    const from = anchor.get(commentId);
    if (!from || from.task_id !== taskId) return null;
    return toPage(taskId, before.all(taskId, from.created_at, from.seq, limit));
  });
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
      return rowToComment(insert.get({ ...comment, id: newId('cmt'), createdAt: now }) as CommentRow);
    },
    listForTask(taskId: string): Comment[] {
      return byTask.all(taskId).map(rowToComment);
    },
    /** The task's latest `limit` comments, oldest first, with the count of older ones. */
    latestForTask(taskId: string, limit: number): CommentPage {
      return latestPage(taskId, limit);
    },
    /**
     * Up to `limit` comments of the task just before `commentId`, oldest first, with the count of older ones; null
     * when there is no such comment or it is another task's.
     */
    pageBefore(taskId: string, commentId: string, limit: number): CommentPage | null {
      return pageBefore(taskId, commentId, limit);
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

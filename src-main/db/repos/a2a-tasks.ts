// Repository of a2a_tasks and a2a_messages: which MAESTRO task and first job each Agent2Agent task is, which context
// names it, and the message ids other agents gave the comments their messages became.

import { iso } from '../ids';
import type { SqlDatabase } from '../sql';

export interface A2aTaskRecord {
  id: string;
  contextId: string;
  /** The MAESTRO task. */
  taskId: string;
  firstJobId: string;
  createdAt: string;
}

interface Row {
  id: string;
  context_id: string;
  task_id: string;
  first_job_id: string;
  created_at: number;
}

const rowToRecord = (r: Row): A2aTaskRecord => ({
  id: r.id,
  contextId: r.context_id,
  taskId: r.task_id,
  firstJobId: r.first_job_id,
  createdAt: iso(r.created_at),
});

export function createA2aTasksRepo(db: SqlDatabase) {
  const insert = db.prepare(
    'INSERT INTO a2a_tasks (id, context_id, task_id, first_job_id, created_at) VALUES (@id, @contextId, @taskId, @firstJobId, @now)',
  );
  const byId = db.prepare<[string], Row>('SELECT * FROM a2a_tasks WHERE id = ?');
  const latestInContext = db.prepare<[string], Row>(
    'SELECT * FROM a2a_tasks WHERE context_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1',
  );
  const page = db.prepare<{ contextId: string | null; limit: number; offset: number }, Row>(
    `SELECT * FROM a2a_tasks WHERE context_id = @contextId OR @contextId IS NULL
     ORDER BY created_at DESC, rowid DESC LIMIT @limit OFFSET @offset`,
  );
  const count = db.prepare<{ contextId: string | null }, { n: number }>(
    'SELECT count(*) AS n FROM a2a_tasks WHERE context_id = @contextId OR @contextId IS NULL',
  );
  const insertMessage = db.prepare<[string, string]>('INSERT INTO a2a_messages (comment_id, message_id) VALUES (?, ?)');
  const messagesOfTask = db.prepare<[string], { comment_id: string; message_id: string }>(
    `SELECT m.comment_id, m.message_id FROM a2a_messages m JOIN comments c ON c.id = m.comment_id WHERE c.task_id = ?`,
  );
  return {
    insert(task: Omit<A2aTaskRecord, 'createdAt'>, now = Date.now()): A2aTaskRecord {
      insert.run({ ...task, now });
      return { ...task, createdAt: iso(now) };
    },
    get(id: string): A2aTaskRecord | undefined {
      const row = byId.get(id);
      return row && rowToRecord(row);
    },
    /** The context's newest A2A task: the one a message naming only the context goes on from. */
    latestInContext(contextId: string): A2aTaskRecord | undefined {
      const row = latestInContext.get(contextId);
      return row && rowToRecord(row);
    },
    /** Newest first; `contextId` null: every context. */
    list(contextId: string | null, limit: number, offset: number): { tasks: A2aTaskRecord[]; total: number } {
      const tasks = page.all({ contextId, limit, offset }).map(rowToRecord);
      return { tasks, total: (count.get({ contextId }) as { n: number }).n };
    },
    /** The message id an agent gave the message that became this comment. */
    recordMessage(commentId: string, messageId: string): void {
      insertMessage.run(commentId, messageId);
    },
    /** The agents' message ids of a MAESTRO task's comments, by comment id. */
    messageIds(taskId: string): Map<string, string> {
      return new Map(messagesOfTask.all(taskId).map((r) => [r.comment_id, r.message_id]));
    },
  };
}

// Repository of the events table: the append-only log behind SSE (seq = SSE id) and the activity timeline.

import type { MaestroEvent, NewEvent } from '../../../src-shared/events';
import { iso } from '../ids';
import { prepareInsert, type SqlDatabase } from '../sql';

interface EventRow {
  seq: number;
  ts: number;
  type: string;
  task_id: string;
  job_id: string | null;
  payload: string;
}

const rowToEvent = (r: EventRow): MaestroEvent =>
  ({
    ...JSON.parse(r.payload),
    seq: r.seq,
    ts: iso(r.ts),
    type: r.type,
    taskId: r.task_id,
    jobId: r.job_id,
  }) as MaestroEvent;

export function createEventsRepo(db: SqlDatabase) {
  const insert = prepareInsert(
    db,
    'INSERT INTO events (ts, type, task_id, job_id, payload) VALUES (?, ?, ?, ?, ?)',
    'seq',
  );
  const after = db.prepare<[number, number], EventRow>('SELECT * FROM events WHERE seq > ? ORDER BY seq LIMIT ?');
  const afterForTask = db.prepare<[string, number, number], EventRow>(
    'SELECT * FROM events WHERE task_id = ? AND seq > ? ORDER BY seq LIMIT ?',
  );
  const latestForTask = db.prepare<[string, number], EventRow>(
    'SELECT * FROM (SELECT * FROM events WHERE task_id = ? ORDER BY seq DESC LIMIT ?) AS latest ORDER BY seq',
  );
  const last = db.prepare<[], { seq: number | null }>('SELECT max(seq) AS seq FROM events');
  // A finished task's superseded snapshots: every job.changed but each job's last, every task.changed but the last,
  // and comment.created (the comments table keeps each comment; the timeline rebuilds their rows from it).
  const supersededJobs = db.prepare<[string, string]>(
    `DELETE FROM events WHERE task_id = ? AND type = 'job.changed'
       AND seq NOT IN (SELECT max(seq) FROM events WHERE task_id = ? AND type = 'job.changed' GROUP BY job_id)`,
  );
  const supersededTask = db.prepare<[string, string]>(
    `DELETE FROM events WHERE task_id = ? AND type = 'task.changed'
       AND seq < (SELECT max(seq) FROM events WHERE task_id = ? AND type = 'task.changed')`,
  );
  const commentEvents = db.prepare<[string]>(`DELETE FROM events WHERE task_id = ? AND type = 'comment.created'`);

  return {
    append(event: NewEvent, now = Date.now()): MaestroEvent {
      const { type, taskId, jobId, ...rest } = event;
      const seq = insert(now, type, taskId, jobId ?? null, JSON.stringify(rest));
      return { ...event, seq, ts: iso(now) } as MaestroEvent;
    },
    /** Events with seq > `seq`, oldest first, optionally of one task. */
    since(seq: number, taskId?: string, limit = 1000): MaestroEvent[] {
      const rows = taskId ? afterForTask.all(taskId, seq, limit) : after.all(seq, limit);
      return rows.map(rowToEvent);
    },
    /** The task's latest `limit` events, oldest first. */
    lastForTask(taskId: string, limit: number): MaestroEvent[] {
      return latestForTask.all(taskId, limit).map(rowToEvent);
    },
    /**
     * Drops what a finished task's log holds twice (see the statements above); returns how many events went. The
     * caller runs it in one transaction per task, so a crash leaves each task compacted or whole.
     */
    compactTask(taskId: string): number {
      return (
        supersededJobs.run(taskId, taskId).changes +
        supersededTask.run(taskId, taskId).changes +
        commentEvents.run(taskId).changes
      );
    },
    lastSeq(): number {
      return last.get()?.seq ?? 0;
    },
  };
}
export type EventsRepo = ReturnType<typeof createEventsRepo>;

// Repository of checkpoints and task_rewinds: a task's checkpoints oldest first (each with the snapshot it names, the
// files changed since the previous one and what it skipped), the workspace commit a job made, and the conversation
// rewinds of a task (which Invoke seq ranges are never replayed again).

import type {
  Checkpoint,
  CheckpointFile,
  CheckpointKind,
  SkippedPath,
  TaskRewind,
} from '../../../src-shared/checkpoints';
import { iso, newId } from '../ids';
import type { SqlDatabase } from '../sql';

interface CheckpointRow {
  id: string;
  task_id: string;
  job_id: string;
  send: number;
  invoke_seq: number;
  kind: CheckpointKind;
  call_id: string | null;
  changed_by: string | null;
  snapshot: string;
  ref: string;
  files_json: string;
  skipped_json: string;
  workspace_commit: string | null;
  created_at: number;
}

/** A checkpoint as the service uses it: the contract's shape plus the snapshot and ref it names. */
export interface StoredCheckpoint extends Checkpoint {
  snapshot: string;
  ref: string;
}

export interface NewCheckpoint {
  /** Chosen by the caller: the snapshot's ref is named after it before the row exists. */
  id: string;
  taskId: string;
  jobId: string;
  send: number;
  invokeSeq: number;
  kind: CheckpointKind;
  callId: string | null;
  changedBy: string | null;
  snapshot: string;
  ref: string;
  files: CheckpointFile[];
  skipped: SkippedPath[];
}

const rowToCheckpoint = (r: CheckpointRow): StoredCheckpoint => ({
  id: r.id,
  taskId: r.task_id,
  jobId: r.job_id,
  send: r.send,
  invokeSeq: r.invoke_seq,
  kind: r.kind,
  createdAt: iso(r.created_at),
  files: JSON.parse(r.files_json) as CheckpointFile[],
  skipped: JSON.parse(r.skipped_json) as SkippedPath[],
  commit: r.workspace_commit,
  callId: r.call_id,
  changedBy: r.changed_by,
  snapshot: r.snapshot,
  ref: r.ref,
});

interface RewindRow {
  id: string;
  task_id: string;
  send: number;
  from_seq: number;
  until_seq: number;
  created_at: number;
  undone_at: number | null;
}

const rowToRewind = (r: RewindRow): TaskRewind => ({
  id: r.id,
  send: r.send,
  fromSeq: r.from_seq,
  untilSeq: r.until_seq,
  createdAt: iso(r.created_at),
  undone: r.undone_at !== null,
});

export function createCheckpointsRepo(db: SqlDatabase) {
  const insert = db.prepare(
    `INSERT INTO checkpoints (id, task_id, job_id, send, invoke_seq, kind, call_id, changed_by, snapshot, ref, files_json, skipped_json, created_at)
     VALUES (@id, @taskId, @jobId, @send, @invokeSeq, @kind, @callId, @changedBy, @snapshot, @ref, @files, @skipped, @now) RETURNING *`,
  );
  const byTask = db.prepare<[string], CheckpointRow>(
    'SELECT * FROM checkpoints WHERE task_id = ? ORDER BY created_at, rowid',
  );
  const byJob = db.prepare<[string], CheckpointRow>(
    'SELECT * FROM checkpoints WHERE job_id = ? ORDER BY created_at, rowid',
  );
  const byId = db.prepare<[string], CheckpointRow>('SELECT * FROM checkpoints WHERE id = ?');
  const latest = db.prepare<[string], CheckpointRow>(
    'SELECT * FROM checkpoints WHERE task_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1',
  );
  const taskCount = db.prepare<[], { n: number }>('SELECT count(DISTINCT task_id) AS n FROM checkpoints');
  const setCommit = db.prepare<[string, string]>('UPDATE checkpoints SET workspace_commit = ? WHERE id = ?');
  const remove = db.prepare<[string]>('DELETE FROM checkpoints WHERE id = ?');
  const insertRewind = db.prepare(
    `INSERT INTO task_rewinds (id, task_id, send, from_seq, until_seq, created_at)
     VALUES (@id, @taskId, @send, @fromSeq, @untilSeq, @now) RETURNING *`,
  );
  const rewinds = db.prepare<[string], RewindRow>(
    'SELECT * FROM task_rewinds WHERE task_id = ? ORDER BY created_at, rowid',
  );
  const undoRewinds = db.prepare<[number, string, number]>(
    'UPDATE task_rewinds SET undone_at = ? WHERE task_id = ? AND undone_at IS NULL AND created_at >= ?',
  );

  return {
    insert(c: NewCheckpoint, now = Date.now()): StoredCheckpoint {
      const row = insert.get({
        ...c,
        files: JSON.stringify(c.files),
        skipped: JSON.stringify(c.skipped),
        now,
      }) as CheckpointRow;
      return rowToCheckpoint(row);
    },
    get(id: string): StoredCheckpoint | undefined {
      const row = byId.get(id);
      return row && rowToCheckpoint(row);
    },
    /** Every checkpoint of the task (every job's), oldest first. */
    listForTask(taskId: string): StoredCheckpoint[] {
      return byTask.all(taskId).map(rowToCheckpoint);
    },
    listForJob(jobId: string): StoredCheckpoint[] {
      return byJob.all(jobId).map(rowToCheckpoint);
    },
    /** How many tasks have checkpoints (Settings shows it with their disk use). */
    tasksWithCheckpoints(): number {
      return taskCount.get()?.n ?? 0;
    },
    latest(taskId: string): StoredCheckpoint | undefined {
      const row = latest.get(taskId);
      return row && rowToCheckpoint(row);
    },
    /** The workspace commit (short hash) a succeeded job made, kept on the job's first checkpoint. */
    setWorkspaceCommit(id: string, shortHash: string): void {
      setCommit.run(shortHash, id);
    },
    remove(id: string): void {
      remove.run(id);
    },
    addRewind(r: { taskId: string; send: number; fromSeq: number; untilSeq: number }, now = Date.now()): TaskRewind {
      return rowToRewind(insertRewind.get({ ...r, id: newId('rw'), now }) as RewindRow);
    },
    rewinds(taskId: string): TaskRewind[] {
      return rewinds.all(taskId).map(rowToRewind);
    },
    /** Takes back the task's rewinds made at or after `since` (ms): their Sends are replayed again. */
    undoRewindsSince(taskId: string, since: number, now = Date.now()): void {
      undoRewinds.run(now, taskId, since);
    },
  };
}
export type CheckpointsRepo = ReturnType<typeof createCheckpointsRepo>;

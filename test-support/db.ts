// Test helpers for the DB layer: a Store on a fresh SQLite file in a temp dir, and rows to hang jobs and requests on.
import path from 'node:path';
import { afterEach } from 'vitest';
import type { JobRecord } from '../src-main/db/repos/jobs';
import { Store } from '../src-main/db/store';
import type { JobStatus, WaitReason } from '../src-shared/entities';
import { tempDir } from './temp-maestro';

const open: Store[] = [];
afterEach(() => {
  for (const store of open.splice(0)) store.close();
});

/** A migrated Store on `file` (default: a new file in a temp dir), closed after the test. */
export function tempStore(file = path.join(tempDir(), 'maestro.db')): Store {
  const store = Store.open(file);
  open.push(store);
  return store;
}

let taskCounter = 0;

/** Inserts a task row (persistent workspace, piece `default`) and returns its id. */
export function insertTask(store: Store, createdAt = Date.now()): string {
  const id = `task_${++taskCounter}_${createdAt}`;
  store.tasks.insert({
    id,
    title: `task ${id}`,
    instruction: 'do it',
    pieceId: 'default',
    workspacePath: '/tmp/ws',
    workspaceKind: 'persistent',
    profile: null,
    parentTaskId: null,
    createdAt,
  });
  return id;
}

/** Inserts a queued job (Invoke UserSend) for `taskId`. */
export function insertJob(store: Store, taskId: string, extra: { parentJobId?: string; now?: number } = {}) {
  return store.jobs.insert(
    { taskId, pieceId: 'default', profile: null, pendingInvoke: 'UserSend', parentJobId: extra.parentJobId },
    extra.now,
  );
}

/**
 * Forces a job row into `status` with raw SQL (bypassing the state machine), with the columns its CHECKs need,
 * so a test can start from any state.
 */
export function forceStatus(store: Store, jobId: string, status: JobStatus, waitReason: WaitReason = 'ask'): JobRecord {
  store.db
    .prepare('UPDATE jobs SET status = ?, wait_reason = ?, next_retry_at = ?, worker_id = ? WHERE id = ?')
    .run(
      status,
      status === 'waiting_human' ? waitReason : null,
      status === 'retry' ? Date.now() + 60_000 : null,
      status === 'running' ? 'w1' : null,
      jobId,
    );
  return store.jobs.get(jobId) as JobRecord;
}

/** The raw row, for comparing a job before and after an operation that must not change it. */
export const rawJob = (store: Store, jobId: string): unknown =>
  store.db.prepare('SELECT * FROM jobs WHERE id = ?').get(jobId);

/** Row counts of every table, for asserting that an operation wrote nothing. */
export function rowCounts(store: Store): Record<string, number> {
  const tables = ['tasks', 'jobs', 'comments', 'tool_requests', 'package_requests', 'events'];
  return Object.fromEntries(
    tables.map((t) => [t, (store.db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n]),
  );
}

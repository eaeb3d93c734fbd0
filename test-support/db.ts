// Test helpers for the DB layer: a Store on a fresh SQLite file in a temp dir — or, inside a describe that asked for
// it (storeDialects), on a fresh PostgreSQL database — and rows to hang jobs and requests on.
import crypto from 'node:crypto';
import path from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { PostgresDb } from '../src-main/db/postgres/pg-db';
import { SyncPostgresClient } from '../src-main/db/postgres/sync-client';
import type { JobRecord } from '../src-main/db/repos/jobs';
import type { Dialect, SqlDatabase } from '../src-main/db/sql';
import { Store } from '../src-main/db/store';
import type { JobStatus, WaitReason } from '../src-shared/entities';
import { hasPg, pgUrlForTest } from './pg-test-db';
import { tempDir } from './temp-maestro';

const open: Store[] = [];
afterEach(() => {
  for (const store of open.splice(0)) store.close();
});

/** While a PostgreSQL describe runs: a migrated database each new one is copied from, and the copies made. */
let template: { url: string; admin: SyncPostgresClient } | null = null;
const copies: string[] = [];

/**
 * The dialects a repository's tests run on: SQLite, and PostgreSQL where the run has a cluster. Inside
 * `describe.each(storeDialects())(…, (dialect) => { useStoreDialect(dialect); … })`, tempStore() opens that dialect.
 */
export function storeDialects(): Dialect[] {
  return hasPg() ? ['sqlite', 'postgres'] : ['sqlite'];
}

/** Makes tempStore() in the surrounding describe open `dialect` (PostgreSQL: a migrated copy per call). */
export function useStoreDialect(dialect: Dialect): void {
  if (dialect === 'sqlite') return;
  beforeAll(async () => {
    const url = (await pgUrlForTest()) as string;
    await Store.openPostgres(url).then((s) => s.close());
    template = { url, admin: new SyncPostgresClient(withDatabase(url, 'postgres')) };
  });
  afterAll(() => {
    const admin = template?.admin;
    template = null;
    for (const name of copies.splice(0)) admin?.run([{ sql: `DROP DATABASE IF EXISTS ${name} WITH (FORCE)` }]);
    admin?.close();
  });
}

const withDatabase = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

/**
 * A migrated Store on `file` (default: a new file in a temp dir, or a new PostgreSQL database; a store's `db.name`
 * opens another connection to the same database), closed after the test.
 */
export function tempStore(file?: string): Store {
  const store = file?.startsWith('postgres')
    ? new Store(new PostgresDb(file) as unknown as SqlDatabase)
    : template && !file
      ? postgresCopy(template)
      : Store.open(file ?? path.join(tempDir(), 'maestro.db'));
  open.push(store);
  return store;
}

function postgresCopy(from: { url: string; admin: SyncPostgresClient }): Store {
  const name = `maestro_copy_${crypto.randomBytes(6).toString('hex')}`;
  const source = new URL(from.url).pathname.slice(1);
  from.admin.run([{ sql: `CREATE DATABASE ${name} TEMPLATE ${source}` }]);
  copies.push(name);
  return new Store(new PostgresDb(withDatabase(from.url, name)) as unknown as SqlDatabase);
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

// bench:queue's PostgreSQL column: several hosts' queue on one database (issue 25 point 3). Against a throwaway
// cluster (or BENCH_PG_URL): claims per second through the repositories (claimNext + complete, each a write under the
// writers' advisory lock, over the synchronous connection) against a bare FOR UPDATE SKIP LOCKED loop of `pg` on the
// same server in the same run; and the latency from one host's commit of a queued job to another host's claim of it,
// woken by LISTEN/NOTIFY (CommitWatcher) rather than by its poll.
import pg from 'pg';
import { CommitWatcher } from '../src-main/db/postgres/commit-watcher';
import { PostgresDb } from '../src-main/db/postgres/pg-db';
import type { SqlDatabase } from '../src-main/db/sql';
import { Store } from '../src-main/db/store';
import { createPgDatabase, pgMissing, startPgCluster } from '../test-support/pg-cluster';

const JOBS = Number(process.env.BENCH_PG_JOBS ?? 1_000);
const ROUNDS = Number(process.env.BENCH_PG_ROUNDS ?? 3);
const WAKES = Number(process.env.BENCH_PG_WAKES ?? 200);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)] as number;
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });

async function fill(url: string, jobs: number, tag: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const now = Date.now();
  await client.query(
    `INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at)
     SELECT 'task_${tag}_' || i, 'bench', 'bench', 'default', '/bench', 'persistent', $1::bigint + i FROM generate_series(1, $2) AS i`,
    [now, jobs],
  );
  await client.query(
    `INSERT INTO jobs (id, task_id, created_at, updated_at, status, piece_id, pending_invoke)
     SELECT 'job_${tag}_' || i, 'task_${tag}_' || i, $1::bigint + i, $1::bigint + i, 'queued', 'default', 'UserSend'
     FROM generate_series(1, $2) AS i`,
    [now, jobs],
  );
  // As autovacuum would have by the time a queue is this long: the planner knows the table's size.
  await client.query('ANALYZE');
  await client.end();
}

function reposClaims(url: string): number {
  const store = new Store(new PostgresDb(url) as unknown as SqlDatabase);
  const start = performance.now();
  for (let i = 0; i < JOBS; i++) {
    const job = store.jobs.claimNext({ workerId: 'bench', profiles: null });
    if (!job) throw new Error(`claim ${i} found nothing`);
    store.jobs.transition(job.id, 'running', 'succeeded', { result: 'ok' }, { owner: 'bench' });
  }
  const seconds = (performance.now() - start) / 1000;
  store.close();
  return JOBS / seconds;
}

async function bareClaims(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const start = performance.now();
  for (let i = 0; i < JOBS; i++) {
    const { rows } = await client.query<{ id: string }>(
      `UPDATE jobs SET status = 'running', worker_id = 'bare', updated_at = $1 WHERE id = (
         SELECT id FROM jobs WHERE status = 'queued' ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      [Date.now()],
    );
    const id = rows[0]?.id;
    if (!id) throw new Error(`bare claim ${i} found nothing`);
    await client.query(`UPDATE jobs SET status = 'succeeded', finished_at = $1 WHERE id = $2 AND status = 'running'`, [
      Date.now(),
      id,
    ]);
  }
  const seconds = (performance.now() - start) / 1000;
  await client.end();
  return JOBS / seconds;
}

/** ms from a producer's commit of a queued job (and its event) to the consumer's claim, woken by NOTIFY. */
async function wakeLatencies(url: string): Promise<number[]> {
  const producer = new Store(new PostgresDb(url) as unknown as SqlDatabase);
  const consumer = new Store(new PostgresDb(url) as unknown as SqlDatabase);
  const latencies: number[] = [];
  let committedAt = 0;
  let claimed: () => void = () => {};
  consumer.subscribe((event) => {
    if (event.type !== 'job.changed' || event.job.status !== 'queued') return;
    const job = consumer.jobs.claimNext({ workerId: 'consumer', profiles: null });
    if (!job) return;
    latencies.push(performance.now() - committedAt);
    claimed();
  });
  const watcher = new CommitWatcher(url, () => consumer.catchUp(), { safetyMs: 60_000, downMs: 60_000 });
  await watcher.start();
  for (let i = 0; i < WAKES; i++) {
    const taskId = `task_wake_${i}`;
    const done = new Promise<void>((resolve) => {
      claimed = resolve;
    });
    committedAt = performance.now();
    producer.transact(() => {
      producer.tasks.insert({
        id: taskId,
        title: 'wake',
        instruction: 'wake',
        pieceId: 'default',
        workspacePath: '/bench',
        workspaceKind: 'persistent',
        profile: null,
        parentTaskId: null,
        createdAt: Date.now(),
      });
      const job = producer.jobs.insert({ taskId, pieceId: 'default', profile: null, pendingInvoke: 'UserSend' });
      producer.publish({ type: 'job.changed', taskId, jobId: job.id, job });
    });
    await done;
  }
  await watcher.close();
  producer.close();
  consumer.close();
  return latencies;
}

export async function postgresColumn(): Promise<void> {
  let baseUrl = process.env.BENCH_PG_URL;
  let stop = async () => {};
  if (!baseUrl) {
    const missing = pgMissing();
    if (missing) {
      console.log(`PostgreSQL column skipped: ${missing}`);
      return;
    }
    const cluster = await startPgCluster();
    baseUrl = cluster.url;
    stop = () => cluster.stop();
  }
  try {
    const { migratePostgres } = await import('../src-main/db/migrations/postgres');
    console.log(`PostgreSQL: ${ROUNDS} rounds × ${JOBS} claims + completes, ${WAKES} wakes by NOTIFY`);
    const ratios: number[] = [];
    const ours: number[] = [];
    const bare: number[] = [];
    for (let r = 1; r <= ROUNDS; r++) {
      const a = await createPgDatabase(baseUrl);
      const b = await createPgDatabase(baseUrl);
      await migratePostgres(a);
      await migratePostgres(b);
      await fill(a, JOBS, `r${r}`);
      await fill(b, JOBS, `r${r}`);
      // Alternate the order so neither side always runs on a warmer server.
      let o: number;
      let w: number;
      if (r % 2) {
        o = reposClaims(a);
        w = await bareClaims(b);
      } else {
        w = await bareClaims(b);
        o = reposClaims(a);
      }
      ours.push(o);
      bare.push(w);
      ratios.push(o / w);
      console.log(
        `  round ${r}: repos ${fmt(o)} claims/s, bare SKIP LOCKED ${fmt(w)} claims/s, ratio ${fmt(o / w, 2)}`,
      );
    }
    const ratio = median(ratios);
    console.log(
      `PostgreSQL claims: repos ${fmt(median(ours))}/s, bare SKIP LOCKED ${fmt(median(bare))}/s, ratio ${fmt(ratio, 2)} (target ≥ 0.5) ${ratio >= 0.5 ? 'OK' : 'MISSED'}`,
    );
    const wakeDb = await createPgDatabase(baseUrl);
    await migratePostgres(wakeDb);
    const wakes = await wakeLatencies(wakeDb);
    const p = p95(wakes);
    console.log(
      `PostgreSQL claim after another host's commit (NOTIFY): median ${fmt(median(wakes), 1)} ms, p95 ${fmt(p, 1)} ms (target ≤ 50) ${p <= 50 ? 'OK' : 'MISSED'}`,
    );
  } finally {
    await stop();
  }
}

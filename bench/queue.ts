// Queue benchmark: enqueue + claim + complete through the real repositories against a raw better-sqlite3 loop on the
// same schema, and claimNext latency with a short and a long queue. Prints ratios measured in this one run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import { openDatabase } from '../src-main/db/connection';
import { Store } from '../src-main/db/store';
import { postgresColumn } from './queue-postgres';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const JOBS = Number(process.env.BENCH_JOBS ?? 2_000);
const CLAIM_SAMPLES = Number(process.env.BENCH_CLAIMS ?? 300);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-bench-'));
let fileSeq = 0;
const freshFile = () => path.join(dir, `queue-${++fileSeq}.db`);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });

function taskRow(id: string, now: number) {
  return {
    id,
    title: 'bench',
    instruction: 'bench',
    pieceId: 'default',
    workspacePath: dir,
    workspaceKind: 'persistent' as const,
    profile: null,
    parentTaskId: null,
    createdAt: now,
  };
}

/** jobs/s through Store: tasks.insert, jobs.insert, jobs.claimNext, jobs.transition running → succeeded. */
function reposRound(round: number): number {
  const store = Store.open(freshFile());
  const start = process.hrtime.bigint();
  for (let i = 0; i < JOBS; i++) {
    const taskId = `task_r${round}_${i}`;
    store.tasks.insert(taskRow(taskId, Date.now()));
    store.jobs.insert({ taskId, pieceId: 'default', profile: null, pendingInvoke: 'UserSend' });
  }
  for (let i = 0; i < JOBS; i++) {
    const job = store.jobs.claimNext({ workerId: 'bench', profiles: null });
    if (!job) throw new Error(`claim ${i} found nothing`);
    if (!store.jobs.transition(job.id, 'running', 'succeeded', { result: 'ok' }, { owner: 'bench' })) {
      throw new Error(`complete ${job.id} failed`);
    }
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  store.close();
  return JOBS / seconds;
}

/** The same work as raw prepared statements: insert task + job, update to running by id, update to succeeded. */
function rawRound(round: number): number {
  const db = openDatabase(freshFile());
  const insertTask = db.prepare(
    `INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, profile, parent_task_id, created_at)
     VALUES (@id, @title, @instruction, @pieceId, @workspacePath, @workspaceKind, @profile, @parentTaskId, @createdAt)`,
  );
  const insertJob = db.prepare(
    `INSERT INTO jobs (id, task_id, created_at, updated_at, status, piece_id, pending_invoke)
     VALUES (?, ?, ?, ?, 'queued', 'default', 'UserSend')`,
  );
  const claim = db.prepare(
    `UPDATE jobs SET status = 'running', worker_id = 'bench', heartbeat_at = ?, updated_at = ?, attempt = attempt + 1
     WHERE id = ? AND status = 'queued'`,
  );
  const complete = db.prepare(
    `UPDATE jobs SET status = 'succeeded', result = 'ok', updated_at = ?, finished_at = ? WHERE id = ? AND status = 'running'`,
  );
  const ids: string[] = [];
  const start = process.hrtime.bigint();
  for (let i = 0; i < JOBS; i++) {
    const now = Date.now();
    const taskId = `task_w${round}_${i}`;
    const jobId = `job_w${round}_${i}`;
    insertTask.run(taskRow(taskId, now));
    insertJob.run(jobId, taskId, now, now);
    ids.push(jobId);
  }
  for (const id of ids) {
    const now = Date.now();
    if (claim.run(now, now, id).changes !== 1) throw new Error(`raw claim ${id} failed`);
    if (complete.run(now, now, id).changes !== 1) throw new Error(`raw complete ${id} failed`);
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  db.close();
  return JOBS / seconds;
}

/** A DB with `queued` queued jobs (one per task), filled in one raw transaction. */
function queueOf(
  queued: number,
  lockedHead = 0,
  status: 'queued' | 'retry' = 'queued',
): { store: Store; file: string } {
  const file = freshFile();
  const db: Database = openDatabase(file);
  const insertTask = db.prepare(
    `INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at)
     VALUES (?, 'bench', 'bench', 'default', ?, 'persistent', ?)`,
  );
  const insertJob = db.prepare(
    `INSERT INTO jobs (id, task_id, created_at, updated_at, status, piece_id, pending_invoke, worker_id, heartbeat_at,
       attempt, next_retry_at)
     VALUES (?, ?, ?, ?, ?, 'default', 'UserSend', ?, ?, ?, ?)`,
  );
  const base = Date.now() - 10 * 86_400_000;
  db.transaction(() => {
    // Optionally: `lockedHead` old queued jobs of one task that already has a running job (its lock is held).
    if (lockedHead > 0) {
      insertTask.run('task_busy', dir, base);
      insertJob.run('job_busy_running', 'task_busy', base, base, 'running', 'elsewhere', Date.now(), 1, null);
      for (let i = 0; i < lockedHead; i++)
        insertJob.run(`job_busy_${i}`, 'task_busy', base + i, base + i, 'queued', null, null, 0, null);
    }
    for (let i = 0; i < queued; i++) {
      const t = base + lockedHead + i;
      insertTask.run(`task_q${i}`, dir, t);
      insertJob.run(`job_q${i}`, `task_q${i}`, t, t, status, null, null, 0, status === 'retry' ? t : null);
    }
  })();
  db.close();
  return { store: Store.open(file), file };
}

/** Median µs per claimNext; after each sample the job completes and a new one is queued, so the length stays put. */
function claimMicros(queued: number, lockedHead = 0, status: 'queued' | 'retry' = 'queued'): number {
  const { store } = queueOf(queued, lockedHead, status);
  const refillRetry = store.db.prepare(
    `INSERT INTO jobs (id, task_id, created_at, updated_at, status, piece_id, pending_invoke, next_retry_at)
     VALUES (?, ?, ?, ?, 'retry', 'default', 'UserSend', ?)`,
  );
  const samples: number[] = [];
  for (let i = 0; i < CLAIM_SAMPLES; i++) {
    const t0 = process.hrtime.bigint();
    const job = store.jobs.claimNext({ workerId: 'bench', profiles: null });
    const t1 = process.hrtime.bigint();
    if (!job) throw new Error('nothing to claim');
    samples.push(Number(t1 - t0) / 1_000);
    store.jobs.transition(job.id, 'running', 'succeeded', {}, { owner: 'bench' });
    const taskId = `task_refill${i}`;
    store.tasks.insert(taskRow(taskId, Date.now()));
    if (status === 'retry') {
      const now = Date.now();
      refillRetry.run(`job_refill${i}`, taskId, now, now, now - 1);
    } else store.jobs.insert({ taskId, pieceId: 'default', profile: null, pendingInvoke: 'UserSend' });
  }
  store.close();
  return median(samples.slice(10));
}

function queryPlan(): string[] {
  const { store } = queueOf(10);
  const sql = `SELECT j.id FROM jobs j WHERE j.status = 'queued'
      AND NOT EXISTS (SELECT 1 FROM jobs r WHERE r.task_id = j.task_id AND r.status = 'running')
      ORDER BY j.created_at, j.rowid LIMIT 1`;
  const rows = store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[];
  const retry = store.db
    .prepare(
      `EXPLAIN QUERY PLAN SELECT j.id FROM jobs j WHERE j.status = 'retry' AND j.next_retry_at <= 0
        AND NOT EXISTS (SELECT 1 FROM jobs r WHERE r.task_id = j.task_id AND r.status = 'running')
        ORDER BY j.next_retry_at, j.created_at, j.rowid LIMIT 1`,
    )
    .all() as { detail: string }[];
  store.close();
  return [...rows.map((r) => `queued: ${r.detail}`), ...retry.map((r) => `retry:  ${r.detail}`)];
}

function main(): void {
  const started = Date.now();
  console.log(`queue bench: ${ROUNDS} rounds × ${JOBS} jobs (enqueue + claim + complete), ${os.cpus().length} CPUs`);
  reposRound(0);
  rawRound(0); // warm-up
  const repos: number[] = [];
  const raw: number[] = [];
  const ratios: number[] = [];
  for (let r = 1; r <= ROUNDS; r++) {
    // Alternate the order so neither side always runs on a warmer cache.
    const [a, b] = r % 2 ? [reposRound(r), rawRound(r)] : [0, 0].map((_, k) => (k ? reposRound(r) : rawRound(r)));
    const [rp, rw] = r % 2 ? [a as number, b as number] : [b as number, a as number];
    repos.push(rp);
    raw.push(rw);
    ratios.push(rp / rw);
    console.log(`  round ${r}: repos ${fmt(rp)} jobs/s, raw ${fmt(rw)} jobs/s, ratio ${fmt(rp / rw, 2)}`);
  }
  const ratio = median(ratios);
  console.log(
    `queue throughput: repos ${fmt(median(repos))} jobs/s, raw ${fmt(median(raw))} jobs/s, ratio ${fmt(ratio, 2)} (target ≥ 0.5) ${ratio >= 0.5 ? 'OK' : 'MISSED'}`,
  );

  const small = claimMicros(100);
  const large = claimMicros(100_000);
  const flat = large / small;
  console.log(
    `claim time: ${fmt(small, 1)} µs with 100 queued, ${fmt(large, 1)} µs with 100,000 queued, ratio ${fmt(flat, 2)} (target: flat, ≤ 2) ${flat <= 2 ? 'OK' : 'MISSED'}`,
  );
  const locked = claimMicros(1_000, 10_000);
  console.log(
    `claim time behind 10,000 queued jobs of a task whose lock is held: ${fmt(locked, 1)} µs (ratio to 100 queued ${fmt(locked / small, 2)})`,
  );
  const retrySmall = claimMicros(100, 0, 'retry');
  const retryLarge = claimMicros(100_000, 0, 'retry');
  console.log(
    `claim time of due retry jobs: ${fmt(retrySmall, 1)} µs with 100 due, ${fmt(retryLarge, 1)} µs with 100,000 due, ratio ${fmt(retryLarge / retrySmall, 2)}`,
  );
  for (const line of queryPlan()) console.log(`  plan ${line}`);
  console.log(`bench took ${fmt((Date.now() - started) / 1000, 1)} s`);
}

main();
postgresColumn()
  .catch((error: unknown) => {
    console.error('PostgreSQL column failed:', error);
    process.exitCode = 1;
  })
  .finally(() => fs.rmSync(dir, { recursive: true, force: true }));

// The Worker claiming and preparing jobs: order, locks, profiles, declined jobs, workspace and piece checks.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { acceptWorkspaceSettings, tempDir } from '../../test-support/temp-maestro';
import { countClaims, gate, must, ScriptedEngine, seed, setup, totalChanges } from '../../test-support/worker-kit';
import type { Maestro } from '../app/create-maestro';
import { Store } from '../db/store';
import type { PieceRunContext } from '../engine/piece-result';
import { JobAborts } from '../jobs/aborts';
import { insertJob } from '../jobs/job-writes';
import type { PieceRunResult } from '../jobs/piece-run-result';
import { dbFile, runtimeDir } from '../workspace/paths';
import { Worker } from './worker';

describe('Worker', () => {
  it('P2.01 processNext with nothing claimable writes nothing; the poll finds a job queued later', async () => {
    const engine = new ScriptedEngine();
    const { m, w, store } = setup(engine);
    const before = totalChanges(store);
    expect(w.processNext()).toBeUndefined();
    expect(totalChanges(store)).toBe(before);
    const claims = countClaims(store);
    m.start();
    await vi.waitFor(() => expect(claims.n).toBeGreaterThanOrEqual(3));
    expect(totalChanges(store)).toBe(before);
    // Written through another connection: no event pokes the worker, only its own poll can find it.
    const other = Store.open(dbFile(m.ctx.dataDir));
    try {
      const queued = seed({ ...m, store: other } as Maestro);
      await vi.waitFor(() => expect(store.jobs.get(queued.id)?.status).toBe('succeeded'), { timeout: 2_000 });
    } finally {
      other.close();
    }
    expect(engine.calls).toHaveLength(1);
  });

  it('a burst of queued jobs is claimed one per turn of the event loop, not in one long task (issue 28)', async () => {
    const hold = gate<PieceRunResult>();
    const engine = new ScriptedEngine().answer(...Array.from({ length: 6 }, () => () => hold.promise));
    const { m, w } = setup(engine, { concurrency: 6 });
    for (let i = 0; i < 6; i++) seed(m);
    // What else the loop runs meanwhile (a request, a stream's write): a tick of its own on every turn.
    let ticks = 0;
    const claimedAtTick: number[] = [];
    const processNext = w.processNext.bind(w);
    w.processNext = () => {
      const running = processNext();
      if (running) claimedAtTick.push(ticks);
      return running;
    };
    let ticking = true;
    const tick = () => {
      ticks++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    m.start();
    await vi.waitFor(() => expect(claimedAtTick).toHaveLength(6));
    ticking = false;
    // Never two claims without the loop turning between them.
    for (let i = 1; i < claimedAtTick.length; i++) {
      expect(claimedAtTick[i]).toBeGreaterThan(claimedAtTick[i - 1] as number);
    }
    hold.open({ kind: 'completed', result: 'ok' });
    await w.idle();
  });

  it('P2.02 a due retry job is claimed before older queued jobs; then queued jobs oldest first', async () => {
    const hold = gate<PieceRunResult>();
    const engine = new ScriptedEngine().answer(
      () => hold.promise,
      () => hold.promise,
      () => hold.promise,
    );
    const { m, w, store } = setup(engine, { concurrency: 3 });
    const now = Date.now();
    const older = seed(m, { createdAt: now - 3_000 });
    const old = seed(m, { createdAt: now - 2_000 });
    const retried = seed(m, { createdAt: now - 1_000 });
    must(store.jobs.transition(retried.id, 'queued', 'running', { workerId: 'gone' }));
    must(store.jobs.transition(retried.id, 'running', 'retry', { nextRetryAt: now - 10, workerId: null }));
    const order = [w.processNext(), w.processNext(), w.processNext()].map((r) => must(r).job.id);
    expect(order).toEqual([retried.id, older.id, old.id]);
    hold.open({ kind: 'completed', result: 'ok' });
    await w.idle();
    expect(engine.calls.map((c) => c.job.id)).toEqual([retried.id, older.id, old.id]);
  });

  it('P2.03 a retry job whose nextRetryAt is in the future is not claimed; a queued job is', async () => {
    const engine = new ScriptedEngine();
    const { m, w, store } = setup(engine);
    const now = Date.now();
    const later = seed(m, { createdAt: now - 2_000 });
    must(store.jobs.transition(later.id, 'queued', 'running', { workerId: 'gone' }));
    must(store.jobs.transition(later.id, 'running', 'retry', { nextRetryAt: now + 60_000, workerId: null }));
    const queued = seed(m, { createdAt: now - 1_000 });
    const run = must(w.processNext());
    expect(run.job.id).toBe(queued.id);
    await run.done;
    expect(w.processNext()).toBeUndefined();
    expect(store.jobs.get(later.id)?.status).toBe('retry');
  });

  it('P2.04 jobs of a profile this worker does not serve are not claimed and stay queued', async () => {
    const engine = new ScriptedEngine();
    const { m, w, store } = setup(engine, { profiles: ['fast'] });
    const slow = seed(m, { profile: 'slow' });
    const none = seed(m, { profile: null });
    const fast = seed(m, { profile: 'fast' });
    const run = must(w.processNext());
    expect(run.job.id).toBe(fast.id);
    await run.done;
    expect(w.processNext()).toBeUndefined();
    expect(store.jobs.get(slow.id)).toMatchObject({ status: 'queued', attempt: 0, workerId: null });
    expect(store.jobs.get(none.id)).toMatchObject({ status: 'queued', attempt: 0, workerId: null });
  });

  it('P2.04 a worker serving [null] takes jobs without a profile only', async () => {
    const engine = new ScriptedEngine();
    const { m, w } = setup(engine, { profiles: [null] });
    seed(m, { profile: 'fast' });
    const none = seed(m, { profile: null });
    expect(must(w.processNext()).job.id).toBe(none.id);
    await w.idle();
    expect(w.processNext()).toBeUndefined();
  });

  it('P2.05 a second job of a task with a running job is not claimed until the lock is released', async () => {
    const engine = new ScriptedEngine();
    const { m, w, store } = setup(engine);
    const first = seed(m);
    const second = insertJob(store, {
      taskId: first.taskId,
      pieceId: 'default',
      profile: null,
      pendingInvoke: 'UserSend',
    });
    must(store.jobs.claimNext({ workerId: 'elsewhere', profiles: null }));
    expect(w.processNext()).toBeUndefined();
    expect(store.jobs.get(second.id)?.status).toBe('queued');
    must(store.jobs.transition(first.id, 'running', 'succeeded', { result: 'x' }));
    const run = must(w.processNext());
    expect(run.job.id).toBe(second.id);
    await run.done;
  });

  it('P2.06 two Workers on two connections to one DB file: exactly one claims the job', async () => {
    const hold = gate<PieceRunResult>();
    const engineA = new ScriptedEngine().answer(() => hold.promise);
    const a = setup(engineA);
    const queued = a.create();
    const engineB = new ScriptedEngine().answer(() => hold.promise);
    // A second Maestro may not open a data dir in use (host.lock): the second Worker gets its own connection.
    const storeB = Store.open(dbFile(a.m.ctx.dataDir));
    const { ctx } = a.m;
    const b = new Worker({
      store: storeB,
      engine: engineB,
      pieces: ctx.pieces,
      aborts: new JobAborts(),
      dataDir: ctx.dataDir,
    });
    try {
      const runs = [a.w.processNext(), b.processNext()];
      expect(runs.filter(Boolean)).toHaveLength(1);
      const winner = runs[0] ? a.w : b;
      expect(a.job(queued.job.id)).toMatchObject({ status: 'running', workerId: winner.id, attempt: 1 });
      hold.open({ kind: 'completed', result: 'ok' });
      await Promise.all([a.w.idle(), b.idle()]);
      expect(engineA.calls.length + engineB.calls.length).toBe(1);
    } finally {
      storeB.close();
    }
  });

  it('P2.07 executeJob start: running, attempt + 1, worker id, heartbeat, job.changed event', async () => {
    const engine = new ScriptedEngine();
    const { w, events, create } = setup(engine);
    const { job } = create();
    const run = must(w.processNext());
    expect(run.job).toMatchObject({ id: job.id, status: 'running', attempt: 1, workerId: w.id });
    expect(run.job.heartbeatAt).not.toBeNull();
    const running = events.find((e) => e.type === 'job.changed' && e.job.status === 'running');
    expect(running).toMatchObject({ jobId: job.id, job: { attempt: 1, workerId: w.id } });
    await run.done;
  });

  it('P2.10 runs/{taskId}/ exists before runPiece; the engine gets task, piece, workspace and signal', async () => {
    let seen: { exists: boolean; ctx: PieceRunContext } | undefined;
    const engine = new ScriptedEngine().answer((ctx) => {
      seen = { exists: fs.statSync(ctx.runtimeDir).isDirectory(), ctx };
      return { kind: 'completed', result: 'ok' };
    });
    const { m, w, create } = setup(engine);
    const workspace = tempDir();
    const { task } = create({ workspacePath: workspace });
    const dir = runtimeDir(m.ctx.dataDir, task.id);
    fs.rmSync(dir, { recursive: true, force: true });
    await must(w.processNext()).done;
    const s = must(seen);
    expect(s.exists).toBe(true);
    expect(s.ctx.runtimeDir).toBe(dir);
    expect(s.ctx.task.id).toBe(task.id);
    expect(s.ctx.piece.id).toBe('default');
    expect(s.ctx.workspacePath).toBe(fs.realpathSync(workspace));
    expect(s.ctx.signal.aborted).toBe(false);
  });

  it('P2.11 workspace folder deleted → failed with an error comment; the engine is not called', async () => {
    const engine = new ScriptedEngine();
    const { w, store, create, job } = setup(engine);
    const workspace = tempDir();
    const created = create({ workspacePath: workspace });
    fs.rmSync(workspace, { recursive: true, force: true });
    await must(w.processNext()).done;
    expect(job(created.job.id)).toMatchObject({ status: 'failed', nextRetryAt: null });
    expect(job(created.job.id).error).toContain(fs.realpathSync(path.dirname(workspace)));
    const errors = store.comments.listForJob(created.job.id).filter((c) => c.kind === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.body).toContain('no longer exists');
    expect(engine.calls).toHaveLength(0);
  });

  it('P2.12 piece missing → failed, not retried, the error names the piece', async () => {
    const engine = new ScriptedEngine();
    const { m, w, job, store } = setup(engine);
    const queued = seed(m, { pieceId: 'vanished' });
    await must(w.processNext()).done;
    expect(job(queued.id)).toMatchObject({ status: 'failed', attempt: 1 });
    expect(job(queued.id).error).toContain('vanished');
    expect(store.comments.listForJob(queued.id).map((c) => c.kind)).toEqual(['error']);
    expect(engine.calls).toHaveLength(0);
  });

  it('P2.12 piece definition fails validation → failed; the error names the file and the YAML field', async () => {
    const engine = new ScriptedEngine();
    const { m, w, job } = setup(engine);
    const workspace = tempDir();
    const file = path.join(workspace, '.maestro', 'pieces', 'broken.yaml');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'id: broken\nname: Broken\nmovements: []\n');
    acceptWorkspaceSettings(m, workspace);
    const queued = seed(m, { pieceId: 'broken', workspacePath: workspace });
    await must(w.processNext()).done;
    const failed = job(queued.id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toContain(file);
    expect(failed.error).toContain('movements');
    expect(engine.calls).toHaveLength(0);
  });

  it('P2.13 a job this worker does not serve → back to queued, attempt not counted, worker_id cleared, no engine call', async () => {
    const engine = new ScriptedEngine();
    const { w, create, job, events } = setup(engine, { serves: () => false });
    const { job: queued } = create();
    expect(w.processNext()).toBeUndefined();
    expect(job(queued.id)).toMatchObject({ status: 'queued', attempt: 0, workerId: null, heartbeatAt: null });
    expect(engine.calls).toHaveLength(0);
    expect(w.activeJobs).toBe(0);
    const statuses = events.filter((e) => e.type === 'job.changed' && e.jobId === queued.id);
    expect(statuses.map((e) => (e.type === 'job.changed' ? e.job.status : ''))).toEqual([
      'queued',
      'running',
      'queued',
    ]);
  });

  it('P2.13 an unserved job does not make the poll loop spin (no immediate re-claim, bounded claims)', async () => {
    const engine = new ScriptedEngine();
    const { m, create, events } = setup(engine, { serves: () => false, concurrency: 2 });
    const { job: queued } = create();
    const polls = countClaims(m.store);
    m.start();
    await vi.waitFor(() => expect(polls.n).toBeGreaterThanOrEqual(10));
    const claims = events.filter(
      (e) => e.type === 'job.changed' && e.jobId === queued.id && e.job.status === 'running',
    );
    // Claimed once and then left alone for a while, not claimed again at every poll or event-loop turn.
    expect(claims).toHaveLength(1);
    expect(m.store.jobs.get(queued.id)).toMatchObject({ status: 'queued', attempt: 0 });
  });

  it('P2.04 P2.13 a declined job is left to other workers: the jobs behind it still run, it is not re-claimed', async () => {
    const engine = new ScriptedEngine();
    const { m, create, job, events } = setup(engine, { serves: (j) => j.pieceId !== 'ask-first' });
    const { job: declined } = create({ pieceId: 'ask-first' });
    const { job: behind } = create();
    const polls = countClaims(m.store);
    m.start();
    await vi.waitFor(() => expect(job(behind.id).status).toBe('succeeded'), { timeout: 2_000 });
    const after = polls.n;
    await vi.waitFor(() => expect(polls.n).toBeGreaterThanOrEqual(after + 5));
    const claims = events.filter(
      (e) => e.type === 'job.changed' && e.jobId === declined.id && e.job.status === 'running',
    );
    expect(claims).toHaveLength(1);
    expect(job(declined.id)).toMatchObject({ status: 'queued', attempt: 0 });
  });

  it('P2.31 P9.05 a retried job resumes in its resumeMovement, passed through the job to the engine', async () => {
    const engine = new ScriptedEngine().answer(
      () => ({ kind: 'error', message: 'ECONNRESET', retryable: true, movement: 'review' }),
      () => ({ kind: 'completed', result: 'second time lucky' }),
    );
    const { m, create, job } = setup(engine);
    const { job: queued } = create();
    m.start();
    await vi.waitFor(() => expect(job(queued.id).status).toBe('succeeded'), { timeout: 2_000 });
    expect(engine.calls.map((c) => [c.job.attempt, c.job.resumeMovement, c.job.pendingInvoke])).toEqual([
      [1, null, 'UserSend'],
      [2, 'review', null],
    ]);
    expect(job(queued.id)).toMatchObject({ attempt: 2, resumeMovement: null, result: 'second time lucky' });
  });
});

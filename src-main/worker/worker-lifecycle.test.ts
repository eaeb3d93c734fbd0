import { describe, expect, it, vi } from 'vitest';
import { gate, must, ScriptedEngine, seed, setup, untilAborted } from '../../test-support/worker-kit';
import type { Engine, PieceRunContext } from '../engine/piece-result';
import type { PieceRunResult } from '../jobs/piece-run-result';

describe('Worker: a running job', () => {
  it('P2.34 the heartbeat is refreshed while the job runs and stops on exit', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    try {
      const hold = gate<PieceRunResult>();
      const engine = new ScriptedEngine().answer(() => hold.promise);
      const { w, create, job } = setup(engine, { heartbeatIntervalMs: 20 });
      const { job: queued } = create();
      const run = must(w.processNext());
      const first = Date.parse(must(run.job.heartbeatAt));
      vi.advanceTimersByTime(20);
      expect(Date.parse(must(job(queued.id).heartbeatAt))).toBe(first + 20);
      hold.open({ kind: 'completed', result: 'ok' });
      await run.done;
      const last = job(queued.id).heartbeatAt;
      expect(vi.getTimerCount()).toBe(0);
      vi.advanceTimersByTime(1_000);
      expect(job(queued.id).heartbeatAt).toBe(last);
    } finally {
      vi.useRealTimers();
    }
  });

  it('P2.34 a heartbeat that finds the job no longer held aborts the run', async () => {
    const aborted = gate<unknown>();
    const engine = new ScriptedEngine().answer(
      untilAborted((reason) => {
        aborted.open(reason);
        return { kind: 'cancelled', reason: 'aborted' };
      }),
    );
    const { w, store, create } = setup(engine);
    const { job: queued } = create();
    const run = must(w.processNext());
    // Someone else (a recovery on another host) took the job away from this worker.
    must(store.jobs.transition(queued.id, 'running', 'retry', { nextRetryAt: Date.now() + 60_000, workerId: null }));
    expect(String(await aborted.promise)).toContain('no longer held');
    await run.done;
    expect(store.jobs.get(queued.id)?.status).toBe('retry');
  });

  it('P2.35 start-up sends a running job with a stale heartbeat to retry; a fresh one is left alone', async () => {
    const engine = new ScriptedEngine();
    const { m, w, store, job } = setup(engine, {
      staleAfterMs: 1_000,
      retry: { maxAttempts: 3, baseDelayMs: 60_000, maxDelayMs: 60_000 },
      recoverAllOnStart: false, // as a Worker beside others on one DB; a host holding the data dir: the next test
    });
    const stale = seed(m);
    const fresh = seed(m);
    must(store.jobs.claimNext({ workerId: 'dead_worker', profiles: null }));
    must(store.jobs.claimNext({ workerId: 'live_worker', profiles: null }));
    expect(store.jobs.heartbeat(stale.id, 'dead_worker', Date.now() - 5_000)).toBe(true);
    m.start();
    expect(job(stale.id)).toMatchObject({ status: 'retry', workerId: null, attempt: 1, pendingInvoke: null });
    expect(job(stale.id).error).toContain('dead_worker');
    expect(Date.parse(must(job(stale.id).nextRetryAt))).toBeGreaterThan(Date.now());
    expect(job(fresh.id)).toMatchObject({ status: 'running', workerId: 'live_worker' });
    await w.stop();
  });

  it('P2.35 a host holding the data dir lock sends every job left running by another worker to retry at start, fresh heartbeat or not', async () => {
    const engine = new ScriptedEngine();
    const { m, w, store, job } = setup(engine, { retry: { maxAttempts: 3, baseDelayMs: 60_000, maxDelayMs: 60_000 } });
    const left = seed(m);
    must(store.jobs.claimNext({ workerId: 'worker_of_a_killed_host', profiles: null }));
    expect(store.jobs.heartbeat(left.id, 'worker_of_a_killed_host')).toBe(true); // a second ago, as a SIGKILL leaves it
    m.start();
    expect(job(left.id)).toMatchObject({ status: 'retry', workerId: null, attempt: 1 });
    expect(job(left.id).error).toContain('the host running it (worker worker_of_a_killed_host) stopped');
    expect(engine.calls).toHaveLength(0);
    await w.stop();
  });

  it('P2.35 P2.29 a stale job at the attempt limit fails with an error comment instead of looping', () => {
    const engine = new ScriptedEngine();
    const { m, w, store, job } = setup(engine, { retry: { maxAttempts: 1, baseDelayMs: 5, maxDelayMs: 5 } });
    const stale = seed(m);
    must(store.jobs.claimNext({ workerId: 'dead_worker', profiles: null }));
    store.jobs.heartbeat(stale.id, 'dead_worker', Date.now() - 5_000);
    expect(w.recover().map((j) => j.id)).toEqual([stale.id]);
    expect(job(stale.id).status).toBe('failed');
    expect(store.comments.listForJob(stale.id).map((c) => c.kind)).toEqual(['error']);
    expect(engine.calls).toHaveLength(0);
  });

  it('P2.36 the engine throws → retry, heartbeat stopped, never left running', async () => {
    const engine = new ScriptedEngine().answer(() => {
      throw new TypeError('engine exploded');
    });
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const { w, create, job } = setup(engine, { retry: { maxAttempts: 3, baseDelayMs: 60_000, maxDelayMs: 60_000 } });
      const { job: queued } = create();
      await must(w.processNext()).done;
      const after = job(queued.id);
      expect(after).toMatchObject({ status: 'retry', workerId: null });
      expect(after.error).toContain('engine exploded');
      expect(vi.getTimerCount()).toBe(0); // no heartbeat left behind
      vi.advanceTimersByTime(1_000);
      expect(job(queued.id).heartbeatAt).toBe(after.heartbeatAt);
    } finally {
      vi.useRealTimers();
    }
  });

  it('P2.36 an engine that throws synchronously, or a result that cannot be applied → retry, not running', async () => {
    const engine: Engine = {
      runPiece() {
        throw new Error('sync throw');
      },
    };
    const { w, create, job } = setup(engine, { retry: { maxAttempts: 3, baseDelayMs: 60_000, maxDelayMs: 60_000 } });
    const { job: a } = create();
    await must(w.processNext()).done;
    expect(job(a.id)).toMatchObject({ status: 'retry' });

    const bad = new ScriptedEngine().answer(() => ({
      kind: 'waiting_approval',
      movement: 'work',
      toolRequests: [],
      packageRequests: [],
    }));
    const second = setup(bad, { retry: { maxAttempts: 3, baseDelayMs: 60_000, maxDelayMs: 60_000 } });
    const { job: b } = second.create();
    await must(second.w.processNext()).done;
    expect(second.job(b.id).status).toBe('retry');
    expect(second.job(b.id).error).toContain('without any request');
  });

  it('P2.38 cancelTask while the engine runs → the signal aborts, the final CAS fails, cancelled stands, no result comment', async () => {
    const started = gate<PieceRunContext>();
    const engine = new ScriptedEngine().answer(
      untilAborted(() => ({ kind: 'completed', result: 'finished anyway' }), started),
    );
    const { m, w, store, create, job } = setup(engine);
    const { job: queued, task } = create();
    const run = must(w.processNext());
    const ctx = await started.promise;
    expect(ctx.signal.aborted).toBe(false);
    m.invoke('cancelTask', { taskId: task.id });
    expect(ctx.signal.aborted).toBe(true);
    expect(await run.done).toBeUndefined();
    expect(job(queued.id)).toMatchObject({ status: 'cancelled', result: null });
    expect(store.comments.listForJob(queued.id).map((c) => [c.author, c.kind])).toEqual([
      ['user', 'instruction'],
      ['system', 'comment'],
    ]);
  });

  it('P2.39 worker.stop() aborts the running job → retry due now, attempt not counted; the next start resumes it', async () => {
    const started = gate<PieceRunContext>();
    const engine = new ScriptedEngine().answer(untilAborted(() => ({ kind: 'cancelled', reason: 'aborted' }), started));
    const { m, w, create, job } = setup(engine);
    const { job: queued } = create();
    m.start();
    const ctx = await started.promise;
    const before = Date.now();
    await w.stop();
    expect(ctx.signal.aborted).toBe(true);
    const parked = job(queued.id);
    expect(parked).toMatchObject({ status: 'retry', attempt: 0, workerId: null, pendingInvoke: null });
    expect(Date.parse(must(parked.nextRetryAt))).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(must(parked.nextRetryAt))).toBeGreaterThanOrEqual(before);
    await m.close();

    const again = new ScriptedEngine();
    const next = setup(again, {}, m.ctx.dataDir);
    next.m.start();
    await vi.waitFor(() => expect(next.job(queued.id).status).toBe('succeeded'), { timeout: 2_000 });
    expect(again.calls[0]?.job).toMatchObject({ attempt: 1, pendingInvoke: null });
  });

  it('P2.39 stop() with an engine that ignores the abort persists the job for the next start after stopTimeoutMs', async () => {
    const started = gate<PieceRunContext>();
    const never = new Promise<PieceRunResult>(() => {});
    const engine = new ScriptedEngine().answer((ctx) => {
      started.open(ctx);
      return never;
    });
    const { m, w, create, job } = setup(engine, { stopTimeoutMs: 50 });
    const { job: queued } = create();
    m.start();
    await started.promise;
    await w.stop();
    expect(job(queued.id)).toMatchObject({ status: 'retry', attempt: 0, workerId: null });
  });

  it('P2.39 a result the run reached while shutting down (ASK) is persisted as it is, not turned into a retry', async () => {
    const started = gate<PieceRunContext>();
    const engine = new ScriptedEngine().answer(
      untilAborted(() => ({ kind: 'ask', movement: 'plan', question: 'Which one?' }), started),
    );
    const { m, w, create, job } = setup(engine);
    const { job: queued } = create();
    m.start();
    await started.promise;
    await w.stop();
    expect(job(queued.id)).toMatchObject({ status: 'waiting_human', waitReason: 'ask', askCount: 1 });
  });
});

import { describe, expect, it } from 'vitest';
import { WHAT_NOW } from '../../src-shared/entities';
import type { MaestroEvent } from '../../src-shared/events';
import { tempDir, testMaestro } from '../../test-support/temp-maestro';
import type { JobRecord } from '../db/repos/jobs';
import type { Store } from '../db/store';
import { handlePieceResult } from './apply-result';
import { insertJob } from './job-writes';
import type { PieceRunResult } from './piece-run-result';
import type { RetryPolicy } from './retry-policy';

const RETRY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 1_000, maxDelayMs: 60_000 };
const W = 'worker_test';

function must<T>(value: T | undefined | null, what = 'value'): T {
  if (value === undefined || value === null) throw new Error(`${what} is missing`);
  return value;
}

let taskSeq = 0;
/** A task with one queued job, written straight through the repositories. */
function seedTask(
  store: Store,
  opts: { resumeMovement?: string; parentJobId?: string; parentTaskId?: string } = {},
): JobRecord {
  const taskId = `task_hr${++taskSeq}_${Date.now()}`;
  store.tasks.insert({
    id: taskId,
    title: 't',
    instruction: 'do it',
    pieceId: 'default',
    workspacePath: tempDir(),
    workspaceKind: 'persistent',
    profile: null,
    parentTaskId: opts.parentTaskId ?? null,
    createdAt: Date.now(),
  });
  return insertJob(store, {
    taskId,
    pieceId: 'default',
    profile: null,
    pendingInvoke: 'UserSend',
    resumeMovement: opts.resumeMovement ?? null,
    parentJobId: opts.parentJobId ?? null,
  });
}

/** A fresh store with one job claimed by W (running, attempt 1), and the events published from then on. */
function running(opts: { resumeMovement?: string } = {}) {
  const m = testMaestro();
  const store = m.store;
  const queued = seedTask(store, opts);
  const job = must(store.jobs.claimNext({ workerId: W, profiles: null }), 'claimed job');
  expect(job.id).toBe(queued.id);
  const events: MaestroEvent[] = [];
  store.subscribe((e) => events.push(e));
  const handle = (result: PieceRunResult, extra: { now?: number; random?: () => number; job?: JobRecord } = {}) =>
    handlePieceResult(store, extra.job ?? job, result, { workerId: W, retry: RETRY, ...extra });
  const comments = () => store.comments.listForJob(job.id);
  const jobEvents = () =>
    events
      .filter((e) => e.type === 'job.changed' && e.jobId === job.id)
      .map((e) => (e.type === 'job.changed' ? e.job.status : ''));
  return { m, store, job, handle, comments, events, jobEvents };
}

/** Moves a claimed job to `retry` at attempt `attempt` and claims it again (attempt + 1). */
function claimAtAttempt(store: Store, job: JobRecord, attempt: number): JobRecord {
  let current = job;
  while (current.attempt < attempt) {
    must(store.jobs.transition(current.id, 'running', 'retry', { nextRetryAt: 0, workerId: null }));
    current = must(store.jobs.claimNext({ workerId: W, profiles: null }), 'reclaimed job');
  }
  return current;
}

describe('handlePieceResult', () => {
  it('completed → succeeded, result set, resumeMovement cleared, result comment by agent, event', () => {
    const { store, job, handle, comments, jobEvents } = running({ resumeMovement: 'review' });
    expect(job.resumeMovement).toBe('review');
    const done = must(handle({ kind: 'completed', result: 'all done' }));
    expect(done).toMatchObject({ status: 'succeeded', result: 'all done', resumeMovement: null, waitReason: null });
    expect(store.jobs.get(job.id)?.status).toBe('succeeded');
    expect(comments()).toMatchObject([{ author: 'agent', kind: 'result', body: 'all done' }]);
    expect(jobEvents()).toEqual(['succeeded']);
  });

  it('P2.22 ask → waiting_human + ask, resumeMovement = asking movement, askCount + 1, question comment, event', () => {
    const { job, handle, comments, jobEvents } = running();
    const parked = must(handle({ kind: 'ask', movement: 'plan', question: 'Which branch?' }));
    expect(parked).toMatchObject({
      status: 'waiting_human',
      waitReason: 'ask',
      resumeMovement: 'plan',
      askCount: job.askCount + 1,
      pendingInvoke: null,
    });
    expect(comments()).toMatchObject([{ author: 'agent', kind: 'question', body: 'Which branch?' }]);
    expect(jobEvents()).toEqual(['waiting_human']);
  });

  it('P2.23 waiting_approval with tool requests → waiting_human + tool_request, pending ToolRequests, events', () => {
    const { store, job, handle, events } = running();
    const parked = must(
      handle({
        kind: 'waiting_approval',
        movement: 'work',
        toolRequests: [
          { callId: 'call_1', tool: 'run_command', args: { cmd: 'ls' }, summary: 'list files' },
          { callId: 'call_2', tool: 'write_file', args: { path: 'a.txt' }, summary: 'write a.txt' },
        ],
        packageRequests: [],
      }),
    );
    expect(parked).toMatchObject({ status: 'waiting_human', waitReason: 'tool_request', resumeMovement: 'work' });
    const requests = store.toolRequests.listForJob(job.id);
    expect(requests.map((r) => [r.callId, r.tool, r.status, r.args])).toEqual([
      ['call_1', 'run_command', 'pending', { cmd: 'ls' }],
      ['call_2', 'write_file', 'pending', { path: 'a.txt' }],
    ]);
    expect(events.filter((e) => e.type === 'tool_request.changed')).toHaveLength(2);
    expect(events.filter((e) => e.type === 'job.changed')).toHaveLength(1);
  });

  it('P2.24 waiting_approval with only a package request → waiting_human + package_request, pending PackageRequest', () => {
    const { store, job, handle, events } = running();
    const parked = must(
      handle({
        kind: 'waiting_approval',
        movement: 'build',
        toolRequests: [],
        packageRequests: [{ callId: 'call_9', manager: 'npm', name: 'left-pad', version: '1.3.0', reason: 'padding' }],
      }),
    );
    expect(parked).toMatchObject({ status: 'waiting_human', waitReason: 'package_request', resumeMovement: 'build' });
    expect(store.packageRequests.listForJob(job.id)).toMatchObject([
      { callId: 'call_9', manager: 'npm', name: 'left-pad', version: '1.3.0', status: 'pending' },
    ]);
    expect(events.filter((e) => e.type === 'package_request.changed')).toHaveLength(1);
  });

  it('P2.23 P2.24 waiting_approval with both kinds → tool_request wait, both requests pending', () => {
    const { store, job, handle } = running();
    const parked = must(
      handle({
        kind: 'waiting_approval',
        movement: 'work',
        toolRequests: [{ callId: 'c1', tool: 'run_command', args: {}, summary: 's' }],
        packageRequests: [{ callId: 'c2', manager: 'pip', name: 'requests', version: null, reason: 'http' }],
      }),
    );
    expect(parked.waitReason).toBe('tool_request');
    expect(store.toolRequests.pendingCount(job.id)).toBe(1);
    expect(store.packageRequests.pendingCount(job.id)).toBe(1);
  });

  it('P2.25 waiting_human browser → waiting_human + browser, resumeMovement, system comment, event', () => {
    const { handle, comments, jobEvents } = running();
    const parked = must(handle({ kind: 'waiting_human', reason: 'browser', movement: 'login', message: 'Log in' }));
    expect(parked).toMatchObject({ status: 'waiting_human', waitReason: 'browser', resumeMovement: 'login' });
    expect(comments()).toMatchObject([{ author: 'system', kind: 'comment', body: 'Log in' }]);
    expect(jobEvents()).toEqual(['waiting_human']);
  });

  it('P2.25 waiting_human mcp_auth_required → waiting_human + mcp_auth_required, resumeMovement', () => {
    const { handle } = running();
    const parked = must(
      handle({ kind: 'waiting_human', reason: 'mcp_auth_required', movement: 'fetch', message: 'token needed' }),
    );
    expect(parked).toMatchObject({ waitReason: 'mcp_auth_required', resumeMovement: 'fetch' });
  });

  it('P2.26 waiting_subtasks with an open child → waiting_subtasks, resumeMovement; the child keeps running', () => {
    const { store, job, handle, jobEvents } = running();
    const child = seedTask(store, { parentJobId: job.id, parentTaskId: job.taskId });
    const childRunning = must(store.jobs.claimNext({ workerId: 'worker_child', profiles: null }));
    expect(childRunning.id).toBe(child.id);
    const parked = must(handle({ kind: 'waiting_subtasks', movement: 'integrate' }));
    expect(parked).toMatchObject({ status: 'waiting_subtasks', resumeMovement: 'integrate' });
    expect(store.jobs.get(child.id)?.status).toBe('running');
    expect(jobEvents()).toEqual(['waiting_subtasks']);
  });

  it('P2.26 waiting_subtasks when every child already ended → queued at once with a Notify Invoke', () => {
    const { store, job, handle } = running();
    const child = seedTask(store, { parentJobId: job.id, parentTaskId: job.taskId });
    must(store.jobs.transition(child.id, 'queued', 'cancelled'));
    const woken = must(handle({ kind: 'waiting_subtasks', movement: 'integrate' }));
    expect(woken).toMatchObject({ status: 'queued', resumeMovement: 'integrate', pendingInvoke: 'Notify' });
  });

  it('P2.32 P2.33 a parent waits until its last open child ends; a failed child counts as done', () => {
    const { store, job, handle } = running();
    const a = seedTask(store, { parentJobId: job.id, parentTaskId: job.taskId });
    const b = seedTask(store, { parentJobId: job.id, parentTaskId: job.taskId });
    must(handle({ kind: 'waiting_subtasks', movement: 'integrate' }));
    const runA = must(store.jobs.claimNext({ workerId: 'wa', profiles: null }));
    const runB = must(store.jobs.claimNext({ workerId: 'wb', profiles: null }));
    expect([runA.id, runB.id].sort()).toEqual([a.id, b.id].sort());
    handlePieceResult(store, runA, { kind: 'completed', result: 'a' }, { workerId: 'wa', retry: RETRY });
    expect(store.jobs.get(job.id)?.status).toBe('waiting_subtasks');
    handlePieceResult(
      store,
      runB,
      { kind: 'error', message: 'boom', retryable: false },
      { workerId: 'wb', retry: RETRY },
    );
    expect(store.jobs.get(b.id)?.status).toBe('failed');
    expect(store.jobs.get(job.id)).toMatchObject({
      status: 'queued',
      resumeMovement: 'integrate',
      pendingInvoke: 'Notify',
    });
  });

  it('P2.27 cancelled → cancelled; open descendants cancelled; pending requests denied; events', () => {
    const { store, job, handle, events } = running();
    const child = seedTask(store, { parentJobId: job.id, parentTaskId: job.taskId });
    const grandchild = seedTask(store, { parentJobId: child.id, parentTaskId: child.taskId });
    store.toolRequests.insert(job.taskId, job.id, { callId: 'c', tool: 't', args: {}, summary: 's' }, Date.now());
    const cancelled = must(handle({ kind: 'cancelled', reason: 'loop guard' }));
    expect(cancelled.status).toBe('cancelled');
    expect(store.jobs.get(child.id)?.status).toBe('cancelled');
    expect(store.jobs.get(grandchild.id)?.status).toBe('cancelled');
    expect(store.toolRequests.listForJob(job.id).map((r) => r.status)).toEqual(['denied']);
    const changed = events.filter((e) => e.type === 'job.changed').map((e) => [e.jobId, e.job.status]);
    expect(changed).toEqual(
      expect.arrayContaining([
        [job.id, 'cancelled'],
        [child.id, 'cancelled'],
        [grandchild.id, 'cancelled'],
      ]),
    );
  });

  it('P2.28 P9.05 retryable error below the limit → retry, nextRetryAt in the backoff window, error set, no new Invoke', () => {
    const { job, handle, comments, jobEvents } = running();
    const now = 1_700_000_000_000;
    // attempt 1: base·2^0 = 1000 ms scaled by jitter [0.5, 1).
    const low = must(
      handle({ kind: 'error', message: 'HTTP 503', retryable: true, movement: 'review' }, { now, random: () => 0 }),
    );
    expect(low).toMatchObject({
      status: 'retry',
      error: 'HTTP 503',
      resumeMovement: 'review',
      workerId: null,
      pendingInvoke: null,
    });
    expect(Date.parse(must(low.nextRetryAt))).toBe(now + 500);
    expect(comments()).toEqual([]);
    expect(jobEvents()).toEqual(['retry']);
    expect(job.attempt).toBe(1);
  });

  it('P2.28 backoff grows exponentially with the attempt and stays in [0.5, 1) × base·2^(attempt−1)', () => {
    const { store, job, handle } = running();
    const second = claimAtAttempt(store, job, 2);
    const now = Date.now();
    const r = must(handle({ kind: 'error', message: 'reset', retryable: true }, { now, job: second }));
    const delay = Date.parse(must(r.nextRetryAt)) - now;
    expect(delay).toBeGreaterThanOrEqual(1_000);
    expect(delay).toBeLessThan(2_000);
    expect(r.resumeMovement).toBeNull();
  });

  it('P2.29 retryable error at the attempt limit → failed, error comment naming the attempts, event', () => {
    const { store, job, handle, comments, jobEvents } = running();
    const last = claimAtAttempt(store, job, RETRY.maxAttempts);
    const failed = must(handle({ kind: 'error', message: 'HTTP 503', retryable: true }, { job: last }));
    expect(failed.status).toBe('failed');
    expect(failed.error).toContain('HTTP 503');
    expect(failed.error).toContain(`${RETRY.maxAttempts} attempts`);
    expect(comments()).toMatchObject([{ author: 'system', kind: 'error' }]);
    expect(comments()[0]?.body).toContain('HTTP 503');
    expect(jobEvents().at(-1)).toBe('failed');
  });

  it('an unreachable model server → retry without using the attempt, the wait growing with the outage', () => {
    const { store, handle, comments } = running();
    const now = 1_700_000_000_000;
    const outage = { kind: 'error' as const, message: 'LLM server unreachable', retryable: true };
    const first = must(handle({ ...outage, outageMs: 1_000 }, { now, random: () => 1 }));
    expect(first).toMatchObject({ status: 'retry', attempt: 0, error: 'LLM server unreachable', workerId: null });
    // At least the outage policy's base wait (5 s) while the outage is shorter.
    expect(Date.parse(must(first.nextRetryAt))).toBe(now + 5_000);
    // Many outage retries later the job still has all its attempts; each wait is as long as the outage so far.
    let current = first;
    for (const outageMs of [20_000, 90_000, 40 * 60_000]) {
      must(store.jobs.transition(current.id, 'retry', 'retry', { nextRetryAt: 0 }));
      const claimed = must(store.jobs.claimNext({ workerId: W, profiles: null }), 'reclaimed job');
      expect(claimed.attempt).toBe(1);
      current = must(handle({ ...outage, outageMs }, { now, random: () => 1, job: claimed }));
      expect(Date.parse(must(current.nextRetryAt)) - now).toBe(Math.min(outageMs, 5 * 60_000));
    }
    expect(current).toMatchObject({ status: 'retry', attempt: 0 });
    expect(comments()).toEqual([]);
  });

  it('an outage longer than the outage policy allows counts attempts again, up to failing', () => {
    const { store, job } = running();
    const last = claimAtAttempt(store, job, RETRY.maxAttempts);
    const retry: RetryPolicy = { ...RETRY, outage: { baseDelayMs: 10, maxDelayMs: 100, giveUpAfterMs: 60_000 } };
    const failed = must(
      handlePieceResult(
        store,
        last,
        { kind: 'error', message: 'LLM server unreachable', retryable: true, outageMs: 61_000 },
        { workerId: W, retry },
      ),
    );
    expect(failed.status).toBe('failed');
    expect(failed.error).toContain(`${RETRY.maxAttempts} attempts`);
  });

  it('P2.30 fatal error → failed at once on the first attempt, error comment, no retry', () => {
    const { handle, comments } = running();
    const failed = must(handle({ kind: 'error', message: 'context overflow', retryable: false, movement: 'work' }));
    expect(failed).toMatchObject({ status: 'failed', error: 'context overflow', nextRetryAt: null, attempt: 1 });
    expect(comments()).toMatchObject([{ author: 'system', kind: 'error', body: `context overflow\n\n${WHAT_NOW}` }]);
  });

  it('P2.38 a job cancelled before the result is applied → the CAS fails, cancelled stands, no result comment', () => {
    const { m, store, job, handle, comments } = running();
    m.invoke('cancelTask', { taskId: job.taskId });
    expect(handle({ kind: 'completed', result: 'late' })).toBeUndefined();
    expect(store.jobs.get(job.id)).toMatchObject({ status: 'cancelled', result: null });
    expect(comments()).toMatchObject([
      { author: 'system', kind: 'comment', body: 'Cancelled.', notice: { code: 'cancelled', subtasks: 0 } },
    ]);
  });

  it('P2.38 a result from a worker that no longer holds the job is ignored', () => {
    const { store, job, comments } = running();
    const applied = handlePieceResult(
      store,
      job,
      { kind: 'completed', result: 'x' },
      { workerId: 'other', retry: RETRY },
    );
    expect(applied).toBeUndefined();
    expect(store.jobs.get(job.id)?.status).toBe('running');
    expect(comments()).toEqual([]);
  });

  it('P2.40 waiting_approval without any request throws and leaves the DB unchanged', () => {
    const { store, job, handle, comments } = running();
    expect(() => handle({ kind: 'waiting_approval', movement: 'w', toolRequests: [], packageRequests: [] })).toThrow(
      /without any request/,
    );
    expect(store.jobs.get(job.id)?.status).toBe('running');
    expect(comments()).toEqual([]);
  });

  describe('P3.19 every PieceRunResult kind maps to its DB state (exhaustive)', () => {
    const cases: [PieceRunResult, Partial<JobRecord>][] = [
      [
        { kind: 'completed', result: 'r' },
        { status: 'succeeded', result: 'r' },
      ],
      [
        { kind: 'ask', movement: 'm', question: 'q' },
        { status: 'waiting_human', waitReason: 'ask' },
      ],
      [
        {
          kind: 'waiting_approval',
          movement: 'm',
          toolRequests: [{ callId: 'c', tool: 't', args: null, summary: 's' }],
          packageRequests: [],
        },
        { status: 'waiting_human', waitReason: 'tool_request' },
      ],
      [
        { kind: 'waiting_human', reason: 'browser', movement: 'm', message: 'x' },
        { status: 'waiting_human', waitReason: 'browser' },
      ],
      [
        { kind: 'waiting_subtasks', movement: 'm' },
        { status: 'queued', pendingInvoke: 'Notify' },
      ],
      [{ kind: 'cancelled', reason: 'r' }, { status: 'cancelled' }],
      [{ kind: 'error', message: 'e', retryable: true }, { status: 'retry' }],
      [{ kind: 'error', message: 'e', retryable: false }, { status: 'failed' }],
    ];
    it.each(cases)('P3.19 %j', (result, expected) => {
      const { store, job, handle } = running();
      handle(result);
      expect(store.jobs.get(job.id)).toMatchObject(expected);
    });

    it('P3.19 an unknown kind throws (assertNever) and changes nothing', () => {
      const { store, job, handle } = running();
      expect(() => handle({ kind: 'bogus' } as unknown as PieceRunResult)).toThrow(/unexpected piece result/);
      expect(store.jobs.get(job.id)?.status).toBe('running');
    });
  });
});

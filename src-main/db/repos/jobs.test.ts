import { describe, expect, it } from 'vitest';
import {
  forceStatus,
  insertJob,
  insertTask,
  rawJob,
  storeDialects,
  tempStore,
  useStoreDialect,
} from '../../../test-support/db';
import { toJob } from './jobs';

describe.each(storeDialects())('jobs repository (%s)', (dialect) => {
  useStoreDialect(dialect);
  it('insert → get maps every column, with defaults for a new job', () => {
    const store = tempStore();
    const taskId = insertTask(store);
    const parent = insertJob(store, taskId);
    const previous = insertJob(store, taskId);
    const now = Date.UTC(2030, 0, 2, 3, 4, 5, 6);
    const job = store.jobs.insert(
      {
        taskId,
        pieceId: 'review',
        profile: 'env',
        pendingInvoke: 'Notify',
        resumeMovement: 'check',
        askCount: 2,
        continuedFromJobId: previous.id,
        parentJobId: parent.id,
      },
      now,
    );
    expect(job).toEqual({
      id: expect.stringMatching(/^job_/),
      taskId,
      createdAt: '2030-01-02T03:04:05.006Z',
      updatedAt: '2030-01-02T03:04:05.006Z',
      status: 'queued',
      waitReason: null,
      pieceId: 'review',
      profile: 'env',
      resumeMovement: 'check',
      askCount: 2,
      attempt: 0,
      nextRetryAt: null,
      continuedFromJobId: previous.id,
      parentJobId: parent.id,
      workerId: null,
      host: null,
      heartbeatAt: null,
      error: null,
      result: null,
      pendingInvoke: 'Notify',
      kind: 'run',
    });
    expect(store.jobs.get(job.id)).toEqual(job);
    expect(store.jobs.get('job_missing')).toBeUndefined();
    expect(toJob(job)).not.toHaveProperty('pendingInvoke');
    // A job of the task's work reads as before kinds existed; only a Reflection job says what it is (P2.08).
    expect(toJob(job)).not.toHaveProperty('kind');
    const reflection = store.jobs.insert({
      taskId,
      pieceId: 'review',
      profile: null,
      pendingInvoke: null,
      kind: 'reflection',
    });
    expect(toJob(reflection)).toMatchObject({ kind: 'reflection', status: 'queued' });
    expect(store.jobs.latestForTask(taskId)?.id).toBe(job.id);
    expect(store.tasks.get(taskId)?.status).toBe('queued');
    expect(store.jobs.reflectionsForTask(taskId).map((j) => j.id)).toEqual([reflection.id]);
    expect(toJob(job)).toMatchObject({ id: job.id, status: 'queued' });

    const bare = insertJob(store, taskId);
    expect(bare).toMatchObject({ resumeMovement: null, askCount: 0, continuedFromJobId: null, parentJobId: null });
  });

  it('listForTask is oldest first; latestForTask is the newest (rowid breaks ties in the same ms)', () => {
    const store = tempStore();
    const taskId = insertTask(store);
    const other = insertTask(store);
    const a = insertJob(store, taskId, { now: 1000 });
    const b = insertJob(store, taskId, { now: 1000 });
    const c = insertJob(store, taskId, { now: 2000 });
    insertJob(store, other, { now: 3000 });
    expect(store.jobs.listForTask(taskId).map((j) => j.id)).toEqual([a.id, b.id, c.id]);
    expect(store.jobs.latestForTask(taskId)?.id).toBe(c.id);
    const d = insertJob(store, taskId, { now: 2000 });
    expect(store.jobs.latestForTask(taskId)?.id).toBe(d.id);
    expect(store.jobs.latestForTask('task_none')).toBeUndefined();
  });

  it('transition is a compare-and-set: a stale `from` returns undefined and leaves the row unchanged (A#3)', () => {
    const store = tempStore();
    const job = insertJob(store, insertTask(store));
    const running = store.jobs.transition(job.id, 'queued', 'running', { workerId: 'w1' }, { now: 5000 });
    expect(running).toMatchObject({ status: 'running', workerId: 'w1', updatedAt: new Date(5000).toISOString() });
    const before = rawJob(store, job.id);
    expect(store.jobs.transition(job.id, 'queued', 'cancelled')).toBeUndefined();
    expect(rawJob(store, job.id)).toEqual(before);
    expect(store.jobs.transition('job_missing', 'queued', 'running')).toBeUndefined();
  });

  it('transition with an owner applies only while that worker holds the job', () => {
    const store = tempStore();
    const job = forceStatus(store, insertJob(store, insertTask(store)).id, 'running'); // held by w1
    const before = rawJob(store, job.id);
    expect(store.jobs.transition(job.id, 'running', 'succeeded', { result: 'x' }, { owner: 'w2' })).toBeUndefined();
    expect(rawJob(store, job.id)).toEqual(before);
    expect(store.jobs.transition(job.id, 'running', 'succeeded', { result: 'ok' }, { owner: 'w1' })).toMatchObject({
      status: 'succeeded',
      result: 'ok',
    });
  });

  it('leaving waiting_human clears waitReason; leaving retry clears nextRetryAt; terminal sets finished_at; patches apply', () => {
    const store = tempStore();
    const job = forceStatus(store, insertJob(store, insertTask(store)).id, 'running');
    const parked = store.jobs.transition(job.id, 'running', 'waiting_human', {
      waitReason: 'ask',
      resumeMovement: 'work',
      askCount: 1,
    });
    expect(parked).toMatchObject({ status: 'waiting_human', waitReason: 'ask', resumeMovement: 'work', askCount: 1 });
    const queued = store.jobs.transition(job.id, 'waiting_human', 'queued');
    expect(queued).toMatchObject({ status: 'queued', waitReason: null, resumeMovement: 'work', askCount: 1 });

    store.jobs.transition(job.id, 'queued', 'running', { workerId: 'w1' });
    const retry = store.jobs.transition(job.id, 'running', 'retry', {
      nextRetryAt: 9000,
      error: 'flaky',
      workerId: null,
    });
    expect(retry).toMatchObject({ status: 'retry', nextRetryAt: new Date(9000).toISOString(), error: 'flaky' });
    expect(retry?.workerId).toBeNull();
    const again = store.jobs.transition(job.id, 'retry', 'running', { workerId: 'w2', heartbeatAt: 9100 });
    expect(again).toMatchObject({ status: 'running', nextRetryAt: null, workerId: 'w2' });
    expect(again?.heartbeatAt).toBe(new Date(9100).toISOString());
    expect(again?.error).toBe('flaky');

    const finishedAt = () =>
      (store.db.prepare('SELECT finished_at FROM jobs WHERE id = ?').get(job.id) as { finished_at: number | null })
        .finished_at;
    expect(finishedAt()).toBeNull();
    const failed = store.jobs.transition(job.id, 'running', 'failed', { error: 'fatal' }, { now: 12_345 });
    expect(failed).toMatchObject({ status: 'failed', error: 'fatal' });
    expect(finishedAt()).toBe(12_345);
  });

  it('children, openDescendants (recursive) and openChildCount', () => {
    const store = tempStore();
    const root = insertJob(store, insertTask(store));
    const childA = insertJob(store, insertTask(store), { parentJobId: root.id });
    const childB = insertJob(store, insertTask(store), { parentJobId: root.id });
    const grandchild = insertJob(store, insertTask(store), { parentJobId: childA.id });
    forceStatus(store, childB.id, 'succeeded');
    expect(store.jobs.children(root.id).map((j) => j.id)).toEqual([childA.id, childB.id]);
    expect(store.jobs.openChildCount(root.id)).toBe(1);
    expect(store.jobs.openDescendants(root.id).map((j) => j.id)).toEqual([childA.id, grandchild.id]);
    forceStatus(store, grandchild.id, 'cancelled');
    expect(store.jobs.openDescendants(root.id).map((j) => j.id)).toEqual([childA.id]);
    expect(store.jobs.openChildCount(childA.id)).toBe(0);
  });
});

describe.each(storeDialects())('jobs.claimNext (%s)', (dialect) => {
  useStoreDialect(dialect);
  const filter = { workerId: 'w1', profiles: null };

  it('P2.06 claims atomically: running, worker_id, heartbeat, attempt +1', () => {
    const store = tempStore();
    const job = insertJob(store, insertTask(store));
    const claimed = store.jobs.claimNext(filter, 7000);
    expect(claimed).toMatchObject({ id: job.id, status: 'running', workerId: 'w1', attempt: 1 });
    expect(claimed?.heartbeatAt).toBe(new Date(7000).toISOString());
    expect(store.jobs.claimNext(filter, 7001)).toBeUndefined();
  });

  it('P2.06 two workers on two connections claim the same queue: exactly one wins the job', () => {
    const a = tempStore();
    const b = tempStore(a.db.name);
    const job = insertJob(a, insertTask(a));
    const first = a.jobs.claimNext({ workerId: 'wa', profiles: null });
    const second = b.jobs.claimNext({ workerId: 'wb', profiles: null });
    expect(first?.id).toBe(job.id);
    expect(second).toBeUndefined();
    expect(b.jobs.get(job.id)).toMatchObject({ status: 'running', workerId: 'wa', attempt: 1 });
  });

  it('P2.02 a due retry job is claimed before older queued jobs; then queued jobs oldest first', () => {
    const store = tempStore();
    const old1 = insertJob(store, insertTask(store), { now: 100 });
    const old2 = insertJob(store, insertTask(store), { now: 200 });
    const retryJob = insertJob(store, insertTask(store), { now: 300 });
    store.jobs.transition(retryJob.id, 'queued', 'running');
    store.jobs.transition(retryJob.id, 'running', 'retry', { nextRetryAt: 1000 });
    const first = store.jobs.claimNext(filter, 1000);
    expect(first).toMatchObject({ id: retryJob.id, status: 'running', nextRetryAt: null });
    expect(store.jobs.claimNext(filter, 1001)?.id).toBe(old1.id);
    expect(store.jobs.claimNext(filter, 1002)?.id).toBe(old2.id);
  });

  it('P2.03 a retry job whose nextRetryAt is in the future is not claimed; a queued job is', () => {
    const store = tempStore();
    const retryJob = insertJob(store, insertTask(store), { now: 100 });
    store.jobs.transition(retryJob.id, 'queued', 'running');
    store.jobs.transition(retryJob.id, 'running', 'retry', { nextRetryAt: 5000 });
    const queued = insertJob(store, insertTask(store), { now: 200 });
    expect(store.jobs.claimNext(filter, 4999)?.id).toBe(queued.id);
    expect(store.jobs.claimNext(filter, 4999)).toBeUndefined();
    expect(store.jobs.get(retryJob.id)?.status).toBe('retry');
    expect(store.jobs.claimNext(filter, 5000)?.id).toBe(retryJob.id);
  });

  it('P2.04 a job of a profile this worker does not serve is not claimed and stays queued', () => {
    const store = tempStore();
    const taskId = insertTask(store);
    const other = store.jobs.insert({ taskId, pieceId: 'default', profile: 'gpu', pendingInvoke: 'UserSend' }, 100);
    const plain = insertJob(store, insertTask(store), { now: 200 });
    expect(store.jobs.claimNext({ workerId: 'w1', profiles: ['cpu', null] })?.id).toBe(plain.id);
    expect(store.jobs.claimNext({ workerId: 'w1', profiles: ['cpu', null] })).toBeUndefined();
    expect(store.jobs.get(other.id)?.status).toBe('queued');
    expect(store.jobs.claimNext({ workerId: 'w2', profiles: ['gpu'] })?.id).toBe(other.id);
  });

  it('P2.05 a job of a task that already has a running job is not claimed until that one ends', () => {
    const store = tempStore();
    const taskId = insertTask(store);
    const first = insertJob(store, taskId, { now: 100 });
    const second = insertJob(store, taskId, { now: 200 });
    expect(store.jobs.claimNext(filter)?.id).toBe(first.id);
    expect(store.jobs.claimNext(filter)).toBeUndefined();
    expect(store.jobs.get(second.id)?.status).toBe('queued');
    store.jobs.transition(first.id, 'running', 'succeeded');
    expect(store.jobs.claimNext(filter)?.id).toBe(second.id);
  });

  it('heartbeat refreshes only the owner’s running job; staleRunning finds jobs whose heartbeat stopped', () => {
    const store = tempStore();
    const job = insertJob(store, insertTask(store));
    expect(store.jobs.heartbeat(job.id, 'w1', 1000)).toBe(false); // not running yet
    store.jobs.claimNext(filter, 1000);
    expect(store.jobs.heartbeat(job.id, 'w2', 2000)).toBe(false);
    expect(store.jobs.heartbeat(job.id, 'w1', 3000)).toBe(true);
    expect(store.jobs.get(job.id)?.heartbeatAt).toBe(new Date(3000).toISOString());
    expect(store.jobs.staleRunning(3000)).toEqual([]);
    expect(store.jobs.staleRunning(3001).map((j) => j.id)).toEqual([job.id]);
  });
});

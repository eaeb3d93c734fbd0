// Tool and package request repositories: mapping, listing and the compare-and-set decision.
import { describe, expect, it } from 'vitest';
import { insertJob, insertTask, storeDialects, tempStore, useStoreDialect } from '../../../test-support/db';
import { toToolRequest } from './tool-requests';

describe.each(storeDialects())('tool requests repository (%s)', (dialect) => {
  useStoreDialect(dialect);
  it('insert → get maps every column and keeps the call’s arguments for the engine only', () => {
    const store = tempStore();
    const taskId = insertTask(store);
    const job = insertJob(store, taskId);
    const args = { command: 'rm -rf build', cwd: 'sub', nested: [1, { a: null }] };
    const r = store.toolRequests.insert(
      taskId,
      job.id,
      { callId: 'call_1', tool: 'run_command', args, summary: 'delete build/' },
      Date.UTC(2030, 1, 1),
    );
    expect(r).toEqual({
      id: expect.stringMatching(/^treq_/),
      taskId,
      jobId: job.id,
      callId: 'call_1',
      tool: 'run_command',
      summary: 'delete build/',
      status: 'pending',
      scope: null,
      createdAt: '2030-02-01T00:00:00.000Z',
      decidedAt: null,
      denyReason: null,
      args,
    });
    expect(store.toolRequests.get(r.id)).toEqual(r);
    expect(toToolRequest(r)).not.toHaveProperty('args');
    expect(store.toolRequests.get('treq_missing')).toBeUndefined();
    const noArgs = store.toolRequests.insert(taskId, job.id, { callId: 'c', tool: 't', args: undefined, summary: 's' });
    expect(noArgs.args).toBeNull();
  });

  it('P7.07 decide is a compare-and-set: the first decision wins, the second gets undefined; pendingCount follows', () => {
    const store = tempStore();
    const taskId = insertTask(store);
    const job = insertJob(store, taskId);
    const other = insertJob(store, insertTask(store));
    const a = store.toolRequests.insert(
      taskId,
      job.id,
      { callId: 'a', tool: 'run_command', args: {}, summary: 'a' },
      1,
    );
    const b = store.toolRequests.insert(
      taskId,
      job.id,
      { callId: 'b', tool: 'run_command', args: {}, summary: 'b' },
      2,
    );
    store.toolRequests.insert(other.taskId, other.id, { callId: 'c', tool: 'x', args: {}, summary: 'c' });
    expect(store.toolRequests.pendingCount(job.id)).toBe(2);
    const won = store.toolRequests.decide(a.id, 'approved', 'task', 777);
    expect(won).toMatchObject({ status: 'approved', scope: 'task', decidedAt: new Date(777).toISOString() });
    expect(store.toolRequests.decide(a.id, 'denied', null)).toBeUndefined();
    expect(store.toolRequests.get(a.id)).toMatchObject({ status: 'approved', scope: 'task' });
    expect(store.toolRequests.pendingCount(job.id)).toBe(1);
    expect(store.toolRequests.decide(b.id, 'denied', null)).toMatchObject({ status: 'denied', scope: null });
    expect(store.toolRequests.pendingCount(job.id)).toBe(0);
    expect(store.toolRequests.listForJob(job.id).map((r) => r.id)).toEqual([a.id, b.id]);
    expect(store.toolRequests.listForTask(taskId).map((r) => r.id)).toEqual([a.id, b.id]);
  });
});

describe.each(storeDialects())('package requests repository (%s)', (dialect) => {
  useStoreDialect(dialect);
  it('insert → get round trip; decide CAS; pendingCount; lists by task and job', () => {
    const store = tempStore();
    const taskId = insertTask(store);
    const job = insertJob(store, taskId);
    const r = store.packageRequests.insert(
      taskId,
      job.id,
      { callId: 'call_p', manager: 'pip', name: 'requests', version: '2.32.0', reason: 'HTTP client' },
      Date.UTC(2030, 2, 3),
    );
    expect(r).toEqual({
      id: expect.stringMatching(/^preq_/),
      taskId,
      jobId: job.id,
      callId: 'call_p',
      manager: 'pip',
      name: 'requests',
      version: '2.32.0',
      reason: 'HTTP client',
      status: 'pending',
      createdAt: '2030-03-03T00:00:00.000Z',
      decidedAt: null,
      denyReason: null,
    });
    expect(store.packageRequests.get(r.id)).toEqual(r);
    const npm = store.packageRequests.insert(
      taskId,
      job.id,
      {
        callId: 'c2',
        manager: 'npm',
        name: 'left-pad',
        version: null,
        reason: 'pad',
      },
      Date.UTC(2030, 2, 4),
    );
    expect(npm.version).toBeNull();
    expect(store.packageRequests.pendingCount(job.id)).toBe(2);
    expect(store.packageRequests.decide(r.id, 'denied', 99)).toMatchObject({
      status: 'denied',
      decidedAt: new Date(99).toISOString(),
    });
    expect(store.packageRequests.decide(r.id, 'approved')).toBeUndefined();
    expect(store.packageRequests.get(r.id)?.status).toBe('denied');
    expect(store.packageRequests.pendingCount(job.id)).toBe(1);
    expect(store.packageRequests.listForJob(job.id).map((x) => x.id)).toEqual([r.id, npm.id]);
    expect(store.packageRequests.listForTask(taskId).map((x) => x.id)).toEqual([r.id, npm.id]);
    expect(store.packageRequests.listForTask('task_none')).toEqual([]);
  });
});

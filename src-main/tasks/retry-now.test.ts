// retryNow: a job waiting to retry is claimed at once instead of at its nextRetryAt; any other job is a 409.
import { afterEach, describe, expect, it } from 'vitest';
import { testBridge } from '../../test-support/bridge-harness';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../../test-support/scripted-llm-server';

const servers: ScriptedLlmServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

const HOUR = 3_600_000;

describe('POST /tasks/:id/retry-now', () => {
  it('brings the next attempt of a job waiting to retry forward to now; the Worker runs it and it succeeds', async () => {
    const server = await startScriptedLlmServer();
    servers.push(server);
    const b = await testBridge();
    await b.api('POST', '/profiles', { name: 'local', baseURL: server.baseURL, model: 'scripted-model' });
    // A job that failed once and waits an hour for its next attempt (as apply-result leaves it).
    const { task, job } = b.maestro.invoke('createTask', { instruction: 'try again' });
    const { store } = b.maestro;
    store.jobs.transition(job.id, 'queued', 'running', { workerId: 'w-gone' });
    const later = Date.now() + HOUR;
    store.jobs.transition(job.id, 'running', 'retry', { nextRetryAt: later, error: 'LLM: Scripted HTTP 500.' });
    server.push({ toolCalls: [{ name: 'complete', arguments: { status: 'success', message: 'second time lucky' } }] });
    b.maestro.start();
    await new Promise((r) => setTimeout(r, 300));
    expect(store.jobs.get(job.id)?.status).toBe('retry');

    const before = Date.now();
    const res = await b.api('POST', `/tasks/${task.id}/retry-now`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.job.id).toBe(job.id);
    expect(Date.parse(res.json.job.nextRetryAt)).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(res.json.job.nextRetryAt)).toBeLessThan(later - HOUR / 2);
    const until = Date.now() + 5_000;
    while (store.jobs.get(job.id)?.status !== 'succeeded' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(store.jobs.get(job.id)).toMatchObject({ status: 'succeeded', result: 'second time lucky' });
  });

  it('409 naming the status for a job not waiting to retry (queued, finished); 404 for an unknown task', async () => {
    const b = await testBridge();
    const { task, job } = b.maestro.invoke('createTask', { instruction: 'queued' });
    const queued = await b.api('POST', `/tasks/${task.id}/retry-now`);
    expect(queued.status).toBe(409);
    expect(queued.json.error).toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/is queued, not waiting to retry/),
    });
    b.maestro.invoke('cancelTask', { taskId: task.id });
    const cancelled = await b.api('POST', `/tasks/${task.id}/retry-now`);
    expect(cancelled.json.error.message).toMatch(/is cancelled, not waiting to retry/);
    expect(b.maestro.store.jobs.get(job.id)?.nextRetryAt).toBeNull();
    const unknown = await b.api('POST', '/tasks/task_nope/retry-now');
    expect(unknown.status).toBe(404);
  });
});

// Through the Worker and the engine: LlmCall retries × job attempts stay bounded for a failing server, and a request
// that can never work fails the task at once, with the server's words and the hint in the error comment.
import { describe, expect, it } from 'vitest';
import { type ScriptEntry, startScriptedLlmServer } from '../../test-support/scripted-llm-server';
import { tempDir, testMaestro } from '../../test-support/temp-maestro';
import { createEngine } from '../engine/engine';
import { DEFAULT_LIMITS } from '../engine/job-run';
import { DEFAULT_RETRY } from '../llm/retry';
import { jobJournals } from './journal';
import { DEFAULT_RETRY_POLICY } from './retry-policy';

async function runTask(script: ScriptEntry[]) {
  const server = await startScriptedLlmServer({ script });
  const maestro = testMaestro({
    defaultWorkspace: tempDir('maestro-ws-'),
    pieceRouter: false,
    env: { MAESTRO_LLM_BASE_URL: server.baseURL, MAESTRO_LLM_MODEL: 'scripted', MAESTRO_LLM_API_KEY: 'sk-test' },
    engine: ({ store, profiles, pieces }) =>
      createEngine({
        journals: jobJournals(store),
        profiles,
        pieceExists: (id, ws) => pieces.get(id, ws) !== undefined,
        tools: () => [],
        options: { limits: DEFAULT_LIMITS, streamIntervalMs: 5 },
        // The default budgets, with short waits.
        llm: { retry: { baseDelayMs: 5, maxDelayMs: 5 }, log: () => {} },
      }),
    worker: {
      concurrency: 1,
      pollIntervalMs: 10,
      heartbeatIntervalMs: 50,
      retry: { maxAttempts: DEFAULT_RETRY_POLICY.maxAttempts, baseDelayMs: 5, maxDelayMs: 5 },
    },
  });
  maestro.start();
  const { job } = maestro.invoke('createTask', { instruction: 'Say hello.' });
  const deadline = Date.now() + 15_000;
  for (;;) {
    const current = maestro.store.jobs.get(job.id);
    if (current && ['succeeded', 'failed', 'cancelled'].includes(current.status)) {
      const comments = maestro.store.comments.listForJob(job.id);
      await server.close();
      return { job: current, requests: server.requests.length, comments };
    }
    if (Date.now() > deadline) throw new Error(`job stuck in ${current?.status}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the request budget of a task', () => {
  it('a server that answers 500 to everything sees at most 8 requests before the task fails', async () => {
    expect((DEFAULT_RETRY.maxRetries + 1) * DEFAULT_RETRY_POLICY.maxAttempts).toBeLessThanOrEqual(8);
    const failing = Array.from({ length: 20 }, (): ScriptEntry => ({ fault: 'http', status: 500, message: 'boom' }));
    const { job, requests } = await runTask(failing);
    expect(job.status).toBe('failed');
    expect(requests).toBe((DEFAULT_RETRY.maxRetries + 1) * DEFAULT_RETRY_POLICY.maxAttempts);
    expect(job.error).toContain('boom');
    expect(job.error).toContain(`gave up after ${DEFAULT_RETRY_POLICY.maxAttempts} attempts`);
  }, 20_000);

  it('llama.cpp without --jinja fails the task on its first request, the hint in the error comment', async () => {
    const body = JSON.stringify({
      error: { code: 500, message: 'tools param requires --jinja flag', type: 'server_error' },
    });
    const { job, requests, comments } = await runTask([{ raw: { status: 500, body } }]);
    expect(job.status).toBe('failed');
    expect(requests).toBe(1);
    const error = comments.find((c) => c.kind === 'error');
    expect(error?.body).toContain('500 tools param requires --jinja flag');
    expect(error?.body).toContain('start llama-server again with --jinja');
  }, 20_000);
});

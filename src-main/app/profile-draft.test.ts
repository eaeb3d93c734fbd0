// The first run's server side: listModels tests a profile before it is saved (the model picker's list), a stored key
// goes only to its own server, and a job that fails because of its profile carries a code the UI links from.
import { afterEach, describe, expect, it } from 'vitest';
import type { Job } from '../../src-shared/entities';
import { type TestBridge, testBridge } from '../../test-support/bridge-harness';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../../test-support/scripted-llm-server';

const KEY = 'sk-draft-0123456789-SECRET-wxyz';
const servers: ScriptedLlmServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function llm(models?: string[]): Promise<ScriptedLlmServer> {
  const server = await startScriptedLlmServer({ apiKey: KEY, ...(models ? { models } : {}) });
  servers.push(server);
  return server;
}

async function waitForJob(b: TestBridge, jobId: string, statuses: string[], timeoutMs = 10_000): Promise<Job> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const job = b.maestro.store.jobs.get(jobId);
    if (job && statuses.includes(job.status)) return job;
    if (Date.now() > until) throw new Error(`job ${jobId} is ${job?.status}, not ${statuses.join('/')}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A base URL where nothing listens (port 1 is refused by fetch itself, as a "bad port", before any connection). */
async function closedPortURL(): Promise<string> {
  const gone = await startScriptedLlmServer();
  await gone.close();
  return gone.baseURL;
}

describe('listModels: a connection test before saving', () => {
  it("answers the server's model ids for a draft; a wrong key or no server → ok: false with the reason, never the key", async () => {
    const server = await llm(['qwen3-coder', 'gpt-oss-20b']);
    const b = await testBridge();
    const good = await b.api('POST', '/profiles/models', { baseURL: server.baseURL, apiKey: KEY, kind: 'openai' });
    expect(good.status, good.text).toBe(200);
    expect(good.json).toEqual({ ok: true, models: ['qwen3-coder', 'gpt-oss-20b'] });
    expect(server.modelListRequests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/models' });
    expect(server.modelListRequests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);

    const wrong = await b.api('POST', '/profiles/models', { baseURL: server.baseURL, apiKey: `${KEY}-old` });
    expect(wrong.json).toEqual({
      ok: false,
      models: [],
      error: expect.stringMatching(/401/),
      code: 'profile_key_refused',
    });
    const down = await b.api('POST', '/profiles/models', { baseURL: 'http://127.0.0.1:1/v1', apiKey: KEY });
    expect(down.json).toEqual({
      ok: false,
      models: [],
      error: expect.stringMatching(/cannot reach the backend/),
      code: 'profile_unreachable',
    });
    for (const r of [good, wrong, down]) expect(r.text).not.toContain(KEY);
    // Nothing was saved by testing.
    expect((await b.api('GET', '/profiles')).json.profiles).toEqual([]);
  });

  it('400 naming the field for a bad base URL, key or kind; nothing is sent', async () => {
    const server = await llm();
    const b = await testBridge();
    const cases: [Record<string, unknown>, string][] = [
      [{ baseURL: 'ftp://host/v1' }, 'baseURL'],
      [{ baseURL: 'not a url' }, 'baseURL'],
      [{ baseURL: server.baseURL, apiKey: 'sk with space' }, 'apiKey'],
      [{ baseURL: server.baseURL, kind: 'kimi' }, 'kind'],
      [{ baseURL: server.baseURL, name: 'a/b' }, 'name'],
      [{ baseURL: server.baseURL, model: 'extra' }, ''],
    ];
    for (const [body, field] of cases) {
      const res = await b.api('POST', '/profiles/models', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error.code).toBe('invalid_input');
      if (field) expect(res.json.error.issues.map((i: { path: string[] }) => i.path[0])).toContain(field);
    }
    expect([...server.requests, ...server.modelListRequests]).toHaveLength(0);
  });

  it("uses a saved profile's stored key for its own base URL only, never for another server", async () => {
    const server = await llm();
    const other = await llm();
    const b = await testBridge();
    await b.api('POST', '/profiles', { name: 'mine', baseURL: server.baseURL, model: 'scripted-model', apiKey: KEY });
    const same = await b.api('POST', '/profiles/models', { baseURL: `${server.baseURL}/`, name: 'mine' });
    expect(same.json).toEqual({ ok: true, models: ['scripted-model'] });
    const elsewhere = await b.api('POST', '/profiles/models', { baseURL: other.baseURL, name: 'mine' });
    expect(elsewhere.json).toMatchObject({ ok: false, error: expect.stringMatching(/401/) });
    expect(other.modelListRequests.at(-1)?.headers.authorization).not.toContain(KEY);
  });
});

describe("a job's profile error carries a code", () => {
  it('401 → failed with profile_key_refused; an unknown model (404) → profile_model_unknown; no server → retry with profile_unreachable', async () => {
    const server = await llm();
    const b = await testBridge();
    b.maestro.start();
    const save = (name: string, baseURL: string, apiKey = KEY) =>
      b.api('POST', '/profiles', { name, baseURL, model: 'scripted-model', apiKey });
    await save('refused', server.baseURL, `${KEY}-old`);
    await save('good', server.baseURL);
    await save('down', await closedPortURL());

    const refused = await b.api('POST', '/tasks', { instruction: 'x', profile: 'refused' });
    const failed = await waitForJob(b, refused.json.job.id, ['failed', 'retry']);
    expect(failed).toMatchObject({ status: 'failed', errorCode: 'profile_key_refused' });

    server.push({ fault: 'http', status: 404 });
    const unknown = await b.api('POST', '/tasks', { instruction: 'y', profile: 'good' });
    expect(await waitForJob(b, unknown.json.job.id, ['failed', 'retry'])).toMatchObject({
      status: 'failed',
      errorCode: 'profile_model_unknown',
    });

    const down = await b.api('POST', '/tasks', { instruction: 'z', profile: 'down' });
    const waiting = await waitForJob(b, down.json.job.id, ['failed', 'retry']);
    expect(waiting, waiting.error ?? '').toMatchObject({ status: 'retry', errorCode: 'profile_unreachable' });
    // The API answers the code too (getTask is what the UI reads).
    const seen = await b.api('GET', `/tasks/${down.json.task.id}`);
    expect(seen.json.jobs.at(-1).errorCode).toBe('profile_unreachable');
    // A job that did not fail has no code at all (the field is optional: older clients see the Job they knew).
    server.push({ toolCalls: [{ name: 'complete', arguments: { status: 'success', message: 'done' } }] });
    const fine = await b.api('POST', '/tasks', { instruction: 'w', profile: 'good' });
    expect(await waitForJob(b, fine.json.job.id, ['succeeded'])).not.toHaveProperty('errorCode');
  });
});

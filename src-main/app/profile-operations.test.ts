// The LLM profile operations through the HTTP bridge: list, save, delete, test; 400s, 404s and 409s; jobs that run
// on a saved profile (and its changes); and the key in no response, SSE event, file of the data dir or log line.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Job } from '../../src-shared/entities';
import { type ApiResponse, openSse, type TestBridge, testBridge } from '../../test-support/bridge-harness';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../../test-support/scripted-llm-server';
import { SECRET_KEY_FILE } from '../llm/profile-store';

const KEY = 'sk-saved-0123456789-SECRET-abcd';
const servers: ScriptedLlmServer[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const s of servers.splice(0)) await s.close();
});

async function llm(apiKey = KEY): Promise<ScriptedLlmServer> {
  const server = await startScriptedLlmServer({ apiKey });
  servers.push(server);
  return server;
}

const completeStep = { toolCalls: [{ name: 'complete', arguments: { status: 'success', message: 'done' } }] };

/** Every line printed through console while the test runs. */
function captureConsole(): string[] {
  const lines: string[] = [];
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      lines.push(args.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : String(a))).join(' '));
    });
  }
  return lines;
}

/** The data dir's files but the sealed ones, as text (the DB and its WAL included). */
function dataDirText(b: TestBridge): string {
  const dir = b.maestro.ctx.dataDir;
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => f !== 'profiles.json' && f !== SECRET_KEY_FILE)
    .map((f) => path.join(dir, f))
    .filter((f) => fs.statSync(f).isFile())
    .map((f) => fs.readFileSync(f).toString('latin1'))
    .join('\n');
}

async function waitForJob(b: TestBridge, jobId: string, statuses: string[], timeoutMs = 10_000): Promise<Job> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const job = b.maestro.store.jobs.get(jobId);
    if (job && statuses.includes(job.status)) return job as unknown as Job;
    if (Date.now() > until) throw new Error(`job ${jobId} is ${job?.status}, not ${statuses.join('/')}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function expectError(res: ApiResponse, status: number, code: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.json.error.code).toBe(code);
}

describe('profiles over the bridge', () => {
  it('lists the env profile; saves one (201) without ever answering its key; lists it with the last 4 only', async () => {
    const b = await testBridge({
      maestro: { env: { MAESTRO_LLM_BASE_URL: 'http://127.0.0.1:9/v1', MAESTRO_LLM_API_KEY: 'sk-env-abcdefgh' } },
    });
    const responses: ApiResponse[] = [];
    const api = async (...args: Parameters<TestBridge['api']>) => {
      const res = await b.api(...args);
      responses.push(res);
      return res;
    };
    expect((await api('GET', '/profiles')).json).toEqual({
      profiles: [
        {
          name: 'env',
          baseURL: 'http://127.0.0.1:9/v1',
          model: 'default',
          kind: 'generic',
          hasKey: true,
          keyHint: 'efgh',
          source: 'env',
          isDefault: true,
        },
      ],
      errors: [],
    });
    const saved = await api('POST', '/profiles', {
      name: 'local',
      baseURL: 'http://127.0.0.1:8/v1',
      model: 'qwen',
      kind: 'llamacpp',
      apiKey: KEY,
      contextWindow: 32768,
      temperature: 0.3,
      parallelToolCalls: false,
      maxConcurrentCalls: 4,
      makeDefault: true,
    });
    expect(saved.status, saved.text).toBe(201);
    expect(saved.json).toEqual({
      profile: {
        name: 'local',
        baseURL: 'http://127.0.0.1:8/v1',
        model: 'qwen',
        kind: 'llamacpp',
        contextWindow: 32768,
        temperature: 0.3,
        parallelToolCalls: false,
        maxConcurrentCalls: 4,
        hasKey: true,
        keyHint: 'abcd',
        source: 'saved',
        isDefault: true,
      },
    });
    // Without apiKey the stored key is kept.
    const edited = await api('POST', '/profiles', { name: 'local', baseURL: 'https://example.test/v1', model: 'q2' });
    expect(edited.json.profile).toMatchObject({
      hasKey: true,
      keyHint: 'abcd',
      model: 'q2',
      kind: 'llamacpp',
      isDefault: true,
    });
    const listed = await api('GET', '/profiles');
    expect(listed.json.profiles.map((p: { name: string; isDefault: boolean }) => [p.name, p.isDefault])).toEqual([
      ['env', false],
      ['local', true],
    ]);
    expect(b.maestro.invoke('createTask', { instruction: 'x' }).job.profile).toBe('local');
    for (const r of responses) expect(r.text).not.toContain(KEY);
  });

  it('P1.02 a save that fails its schema → 400 invalid_input naming the field; nothing is written', async () => {
    const b = await testBridge();
    const ok = { name: 'local', baseURL: 'http://127.0.0.1:8/v1', model: 'm' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...ok, name: '' }, 'name'],
      [{ ...ok, name: 'a/b' }, 'name'],
      [{ ...ok, name: '-x' }, 'name'],
      [{ ...ok, baseURL: 'ftp://host/v1' }, 'baseURL'],
      [{ ...ok, baseURL: 'not a url' }, 'baseURL'],
      [{ ...ok, model: '  ' }, 'model'],
      [{ ...ok, apiKey: 'sk with space' }, 'apiKey'],
      [{ ...ok, apiKey: 5 }, 'apiKey'],
      [{ ...ok, temperature: 7 }, 'temperature'],
      [{ ...ok, contextWindow: 1.5 }, 'contextWindow'],
      [{ ...ok, parallelToolCalls: 'yes' }, 'parallelToolCalls'],
      [{ ...ok, kind: 'kimi' }, 'kind'],
      [{ ...ok, maxConcurrentCalls: 0 }, 'maxConcurrentCalls'],
      [{ ...ok, maxConcurrentCalls: 2.5 }, 'maxConcurrentCalls'],
      [{ ...ok, bogus: true }, ''],
      [{ baseURL: ok.baseURL, model: 'm' }, 'name'],
    ];
    for (const [body, field] of cases) {
      const res = await b.api('POST', '/profiles', body);
      expectError(res, 400, 'invalid_input');
      if (field) expect(res.json.error.issues.map((i: { path: unknown[] }) => i.path[0])).toContain(field);
      expect(res.text).not.toContain('sk with space');
    }
    expectError(await b.api('POST', '/profiles/local/delete', { extra: 1 }), 400, 'invalid_input');
    expectError(await b.api('POST', '/profiles/a%20b/test'), 400, 'invalid_input');
    expect(fs.readdirSync(b.maestro.ctx.dataDir).filter((f) => !/^(maestro\.db(-.*)?|host\.lock)$/.test(f))).toEqual(
      [],
    );
  });

  it('409 conflict for the env profile, 404 for an unknown one, 200 { ok: true } on delete', async () => {
    const b = await testBridge({ maestro: { env: { MAESTRO_LLM_BASE_URL: 'http://127.0.0.1:9/v1' } } });
    expectError(await b.api('POST', '/profiles', { name: 'env', baseURL: 'http://x/v1', model: 'm' }), 409, 'conflict');
    expectError(await b.api('POST', '/profiles/env/delete'), 409, 'conflict');
    expectError(await b.api('POST', '/profiles/nope/delete'), 404, 'not_found');
    expectError(await b.api('POST', '/profiles/nope/test'), 404, 'not_found');
    expect((await b.api('POST', '/profiles', { name: 'x', baseURL: 'http://x/v1', model: 'm' })).status).toBe(201);
    const deleted = await b.api('POST', '/profiles/x/delete');
    expect(deleted.status).toBe(200);
    expect(deleted.json).toEqual({ ok: true });
    expect((await b.api('GET', '/profiles')).json.profiles.map((p: { name: string }) => p.name)).toEqual(['env']);
    expectError(await b.api('POST', '/tasks', { instruction: 'x', profile: 'x' }), 400, 'invalid_input');
  });

  it('testProfile lists the models through the SDK; a wrong key or no backend → ok: false with the reason, no key', async () => {
    const server = await llm();
    const b = await testBridge();
    const save = (name: string, apiKey: string, baseURL = server.baseURL) =>
      b.api('POST', '/profiles', { name, baseURL, model: 'scripted-model', apiKey });
    await save('good', KEY);
    await save('wrong', `${KEY}-wrong`);
    await save('down', KEY, 'http://127.0.0.1:1/v1');

    const good = await b.api('POST', '/profiles/good/test');
    expect(good.status).toBe(200);
    expect(good.json).toEqual({ ok: true, models: ['scripted-model'] });
    expect(server.modelListRequests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/models' });
    expect(server.modelListRequests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);

    const wrong = await b.api('POST', '/profiles/wrong/test');
    expect(wrong.json).toEqual({
      ok: false,
      models: [],
      error: expect.stringMatching(/401/),
      code: 'profile_key_refused',
    });
    const down = await b.api('POST', '/profiles/down/test');
    expect(down.json).toEqual({
      ok: false,
      models: [],
      error: expect.stringMatching(/cannot reach the backend/),
      code: 'profile_unreachable',
    });
    for (const r of [good, wrong, down]) expect(r.text).not.toContain(KEY);
    expect(server.remaining).toBe(0);
  });

  it('a broken profiles.json: the env profile is still listed, errors names the file, a save is refused (409)', async () => {
    const b = await testBridge({ maestro: { env: { MAESTRO_LLM_BASE_URL: 'http://127.0.0.1:9/v1' } } });
    const file = path.join(b.maestro.ctx.dataDir, 'profiles.json');
    await b.maestro.close();
    fs.writeFileSync(file, '{"version": 1, "profiles": [');
    const again = await testBridge({
      maestro: { dataDir: b.maestro.ctx.dataDir, env: { MAESTRO_LLM_BASE_URL: 'http://127.0.0.1:9/v1' } },
    });
    const listed = await again.api('GET', '/profiles');
    expect(listed.status).toBe(200);
    expect(listed.json.profiles.map((p: { name: string }) => p.name)).toEqual(['env']);
    expect(listed.json.errors).toEqual([{ file, message: `${file} is not valid JSON` }]);
    const save = await again.api('POST', '/profiles', { name: 'x', baseURL: 'http://x/v1', model: 'm' });
    expectError(save, 409, 'conflict');
    expect(save.json.error.message).toContain(file);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"version": 1, "profiles": [');
  });
});

describe('jobs on saved profiles', () => {
  it('P2.17 a task on a saved profile runs (the Worker starts with the first profile); a changed profile is used at once; the key is nowhere', async () => {
    const first = await llm();
    const second = await llm();
    const console = captureConsole();
    const b = await testBridge();
    b.maestro.start();
    expect(b.maestro.worker).toBeNull();
    const sse = await openSse(b);
    const save = (baseURL: string) =>
      b.api('POST', '/profiles', { name: 'mine', baseURL, model: 'scripted-model', apiKey: KEY });

    expect((await save(first.baseURL)).status).toBe(201);
    expect(b.maestro.worker).not.toBeNull();
    first.push(completeStep);
    const one = await b.api('POST', '/tasks', { instruction: 'first', profile: 'mine' });
    expect(one.json.job.profile).toBe('mine');
    await waitForJob(b, one.json.job.id, ['succeeded']);
    expect(first.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);

    // The engine cached a client for "mine"; the new base URL must be used by the next job.
    expect((await save(second.baseURL)).status).toBe(201);
    second.push(completeStep);
    const two = await b.api('POST', '/tasks', { instruction: 'second', profile: 'mine' });
    await waitForJob(b, two.json.job.id, ['succeeded']);
    expect(second.requests).toHaveLength(1);
    expect(first.requests.filter((r) => r.path.includes('chat'))).toHaveLength(1);

    sse.close();
    expect(sse.raw()).toContain(two.json.job.id);
    expect(sse.raw()).not.toContain(KEY);
    expect(dataDirText(b)).not.toContain(KEY);
    expect(console.join('\n')).not.toContain(KEY);
  });

  it('P2.17 a profile without a usable key → the job fails with a clear error; the key is never logged', async () => {
    const server = await llm();
    const console = captureConsole();
    const b = await testBridge();
    b.maestro.start();
    const sse = await openSse(b);
    // The backend refuses the key: the job fails (not retried) and says why.
    await b.api('POST', '/profiles', {
      name: 'refused',
      baseURL: server.baseURL,
      model: 'm',
      apiKey: `${KEY}-old`,
    });
    const refused = await b.api('POST', '/tasks', { instruction: 'x', profile: 'refused' });
    const failed = await waitForJob(b, refused.json.job.id, ['failed', 'retry']);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/401/);

    // The sealed key cannot be opened any more (secret.key lost): the job fails naming the profile and the file.
    await b.api('POST', '/profiles', { name: 'sealed', baseURL: server.baseURL, model: 'm', apiKey: KEY });
    fs.rmSync(path.join(b.maestro.ctx.dataDir, SECRET_KEY_FILE));
    const sealed = await b.api('POST', '/tasks', { instruction: 'y', profile: 'sealed' });
    const lost = await waitForJob(b, sealed.json.job.id, ['failed', 'retry']);
    expect(lost.status).toBe('failed');
    expect(lost.error).toContain('the API key of LLM profile "sealed" cannot be used');
    expect(lost.error).toContain(`${SECRET_KEY_FILE} is missing`);
    const tested = await b.api('POST', '/profiles/sealed/test');
    expect(tested.json).toMatchObject({ ok: false, error: expect.stringContaining('secret.key is missing') });
    const listed = await b.api('GET', '/profiles');
    // Both saved keys were sealed with the lost secret.key.
    expect(listed.json.errors.map((e: { message: string }) => /"(\w+)"/.exec(e.message)?.[1])).toEqual([
      'refused',
      'sealed',
    ]);

    sse.close();
    for (const text of [sse.raw(), dataDirText(b), console.join('\n'), tested.text, listed.text]) {
      expect(text).not.toContain(KEY);
    }
    expect(server.requests.filter((r) => r.path.includes('chat'))).toHaveLength(1);
  });
});

// The HTTP bridge against a real server on 127.0.0.1:0: auth, errors, status codes, Host check, static files, CORS.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { contract, OPERATION_NAMES, type OperationName } from '../../src-shared/contract';
import { ERROR_STATUS, type ErrorCode, MaestroError } from '../../src-shared/errors';
import {
  type ApiResponse,
  rawRequest,
  type TestBridge,
  testBridge,
  toApiResponse,
} from '../../test-support/bridge-harness';
import { tempDir } from '../../test-support/temp-maestro';
import type { Maestro } from '../app/create-maestro';
import { IllegalTransitionError } from '../jobs/job-state';
import { ConfigFileError } from '../workspace/json-file';
import { ROUTES } from './routes';
import { MAX_BODY_BYTES } from './server';
import { CONTENT_SECURITY_POLICY } from './static-files';

/** A body each operation accepts, so a refusal can only come from what the test changed. */
const VALID_BODY: Record<OperationName, unknown> = {
  health: undefined,
  listPieces: undefined,
  createTask: { instruction: 'write a haiku' },
  runTask: { instruction: 'write a haiku', waitMs: 1 },
  listTasks: undefined,
  listSpaces: undefined,
  updateSpace: { name: 'renamed' },
  getTask: undefined,
  getTaskRecent: undefined,
  listCommentsBefore: undefined,
  addComment: { body: 'one more thing' },
  continueTask: {},
  cancelTask: undefined,
  listToolRequests: undefined,
  decideToolRequest: { decision: 'approve' },
  listPackageRequests: undefined,
  decidePackageRequest: { decision: 'approve' },
  getTranscript: undefined,
  getUsage: undefined,
  listTaskEvents: undefined,
  listProfiles: undefined,
  saveProfile: { name: 'local', baseURL: 'http://127.0.0.1:9/v1', model: 'local-model' },
  deleteProfile: undefined,
  testProfile: undefined,
  getAutoPrompter: undefined,
  saveAutoPrompter: { enabled: false, rules: [] },
  listMcpServers: undefined,
  saveMcpToken: { workspacePath: '/no/such/workspace', server: 'github', token: 'ghp_test' },
  listRecentFolders: undefined,
  getToolPolicy: undefined,
  saveToolPolicy: { workspacePath: '/no/such/workspace', policy: {} },
  getSettings: undefined,
  saveSettings: { notifications: { os: true, sound: false } },
};

/** A task whose job waits on one tool request and one package request. */
function seedParkedTask(maestro: Maestro) {
  const { task, job } = maestro.invoke('createTask', { instruction: 'seed' });
  const { store } = maestro;
  store.jobs.transition(job.id, 'queued', 'running', { workerId: 'w-test' });
  store.jobs.transition(job.id, 'running', 'waiting_human', { waitReason: 'tool_request' });
  const tool = store.toolRequests.insert(task.id, job.id, {
    callId: 'call_1',
    tool: 'run_command',
    args: { command: 'ls' },
    summary: 'run `ls` in the workspace',
  });
  const pkg = store.packageRequests.insert(task.id, job.id, {
    callId: 'call_2',
    manager: 'npm',
    name: 'left-pad',
    version: null,
    reason: 'padding',
  });
  return { task, job, tool, pkg };
}

const pathOf = (name: OperationName, ids: { taskId: string; requestId: string; commentId?: string }) =>
  contract[name].path
    .replace(':taskId', encodeURIComponent(ids.taskId))
    .replace(':requestId', ids.requestId)
    .replace(':commentId', ids.commentId ?? 'cmt_nope');

/** Every row of every table, and every file of the data dir but the DB's own: what "nothing changed" compares. */
function snapshot(maestro: Maestro): string {
  const { db } = maestro.store;
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
    name: string;
  }[];
  const rows = tables.map((t) => [t.name, db.prepare(`SELECT * FROM "${t.name}" ORDER BY rowid`).all()]);
  const files = (fs.readdirSync(maestro.ctx.dataDir, { recursive: true }) as string[])
    .filter((f) => !f.startsWith('maestro.db'))
    .sort();
  return JSON.stringify({ rows, files });
}

function expectErrorShape(res: ApiResponse, status: number, code: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(Object.keys(res.json)).toEqual(['error']);
  expect(res.json.error.code).toBe(code);
  expect(typeof res.json.error.message).toBe('string');
  expect(res.json.error.message.length).toBeGreaterThan(0);
}

describe('bridge: health and pieces', () => {
  it('P1.28 GET /health → { ok: true, version }', async () => {
    const b = await testBridge();
    const res = await b.api('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true, version: 'test' });
  });

  it('P1.29 GET /pieces lists built-in and workspace pieces, and a broken workspace file as an error', async () => {
    const workspace = tempDir();
    const piecesDir = path.join(workspace, '.maestro', 'pieces');
    fs.mkdirSync(piecesDir, { recursive: true });
    fs.writeFileSync(
      path.join(piecesDir, 'review.yaml'),
      'id: review\nname: Review\ndescription: Reviews.\nmovements:\n  - name: read\n    description: Read it.\n  - name: judge\n',
    );
    const bad = path.join(piecesDir, 'bad.yaml');
    fs.writeFileSync(bad, 'id: Not An Id\nname: Bad\nmovements: []\n');
    const b = await testBridge({ maestro: { defaultWorkspace: workspace } });

    const res = await b.api('GET', '/pieces');
    expect(res.status).toBe(200);
    const byId = Object.fromEntries(res.json.pieces.map((p: { id: string }) => [p.id, p]));
    for (const piece of res.json.pieces) {
      expect(piece).toEqual({
        id: expect.any(String),
        name: expect.any(String),
        description: expect.any(String),
        startMovement: expect.any(String),
        movements: expect.any(Array),
        source: expect.stringMatching(/^(builtin|workspace)$/),
      });
    }
    expect(byId.default).toMatchObject({ source: 'builtin', startMovement: 'work' });
    expect(byId.review).toEqual({
      id: 'review',
      name: 'Review',
      description: 'Reviews.',
      startMovement: 'read',
      movements: [
        { name: 'read', description: 'Read it.' },
        { name: 'judge', description: '' },
      ],
      source: 'workspace',
    });
    expect(res.json.errors).toEqual([{ file: fs.realpathSync(bad), message: expect.stringMatching(/\S/) }]);
  });
});

describe('bridge: authentication', () => {
  it('P1.03 every route (and unknown ones) without the token or with a wrong one → 401, DB and files unchanged', async () => {
    const b = await testBridge();
    const { task, tool } = seedParkedTask(b.maestro);
    const before = snapshot(b.maestro);
    const wrongAuth: (Record<string, string> | undefined)[] = [
      { authorization: '' },
      { authorization: 'Bearer' },
      { authorization: 'Bearer wrong-token' },
      { authorization: `Bearer ${b.token}x` },
      { authorization: `Bearer ${b.token.slice(0, -1)}` },
      { authorization: `Basic ${b.token}` },
      { authorization: b.token },
    ];
    const targets = [
      ...ROUTES.map((r) => ({
        method: r.method,
        path: pathOf(r.name, { taskId: task.id, requestId: tool.id }),
        body: VALID_BODY[r.name],
      })),
      { method: 'GET', path: '/events', body: undefined },
      { method: 'GET', path: '/no-such-route', body: undefined },
    ];
    for (const target of targets) {
      for (const headers of wrongAuth) {
        const res = await b.api(target.method, target.path, target.body, headers);
        expectErrorShape(res, 401, 'unauthorized');
        expect(res.headers.get('www-authenticate')).toBe('Bearer');
      }
      // No header at all: fetch without the helper's default.
      const res = await toApiResponse(
        await fetch(`${b.url}/api/local${target.path}`, {
          method: target.method,
          body: target.body === undefined ? undefined : JSON.stringify(target.body),
        }),
      );
      expectErrorShape(res, 401, 'unauthorized');
    }
    expect(snapshot(b.maestro)).toBe(before);
    // The same requests with the token do act: the 401s were about the token, not the requests.
    expect((await b.api('POST', '/tasks', VALID_BODY.createTask)).status).toBe(201);
  });

  it('P1.03 ?token= is accepted on /api/local/events only', async () => {
    const b = await testBridge();
    const before = snapshot(b.maestro);
    for (const [method, p, body] of [
      ['GET', '/health', undefined],
      ['GET', '/tasks', undefined],
      ['POST', '/tasks', { instruction: 'sneak in' }],
    ] as const) {
      const res = await toApiResponse(
        await fetch(`${b.url}/api/local${p}?token=${b.token}`, {
          method,
          body: body && JSON.stringify(body),
        }),
      );
      expectErrorShape(res, 401, 'unauthorized');
    }
    expect(snapshot(b.maestro)).toBe(before);

    const controller = new AbortController();
    const ok = await fetch(`${b.url}/api/local/events?token=${b.token}`, { signal: controller.signal });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/event-stream/);
    controller.abort();
    const wrong = await fetch(`${b.url}/api/local/events?token=${b.token}x`);
    expect(wrong.status).toBe(401);
  });

  it('accepts the Bearer scheme case-insensitively', async () => {
    const b = await testBridge();
    expect((await b.api('GET', '/health', undefined, { authorization: `bearer ${b.token}` })).status).toBe(200);
  });
});

describe('bridge: errors', () => {
  it('P1.04 every /tasks/:id… route with an unknown id → 404 { error: { code, message } }, nothing changes', async () => {
    const b = await testBridge();
    const { task, tool, pkg } = seedParkedTask(b.maestro);
    const other = b.maestro.invoke('createTask', { instruction: 'another task' }).task;
    const [comment] = b.maestro.store.comments.listForTask(task.id);
    const [otherComment] = b.maestro.store.comments.listForTask(other.id);
    const before = snapshot(b.maestro);
    const taskRoutes = ROUTES.filter((r) => r.params.includes('taskId'));
    expect(taskRoutes).toHaveLength(13);
    for (const route of taskRoutes) {
      for (const taskId of ['task_nope', 'a b', 'a/b']) {
        const res = await b.api(
          route.method,
          pathOf(route.name, { taskId, requestId: tool.id, commentId: comment?.id }),
          VALID_BODY[route.name],
        );
        expectErrorShape(res, 404, 'not_found');
      }
    }
    // Unknown request ids, and a real request id under the wrong task.
    for (const [name, requestId] of [
      ['decideToolRequest', 'treq_nope'],
      ['decidePackageRequest', 'preq_nope'],
      ['decideToolRequest', pkg.id],
      ['decidePackageRequest', tool.id],
    ] as const) {
      const res = await b.api('POST', pathOf(name, { taskId: task.id, requestId }), VALID_BODY[name]);
      expectErrorShape(res, 404, 'not_found');
    }
    for (const [name, requestId] of [
      ['decideToolRequest', tool.id],
      ['decidePackageRequest', pkg.id],
    ] as const) {
      const res = await b.api('POST', pathOf(name, { taskId: other.id, requestId }), VALID_BODY[name]);
      expectErrorShape(res, 404, 'not_found');
    }
    // The page before an unknown comment, or before another task's comment.
    for (const commentId of ['cmt_nope', otherComment?.id]) {
      const res = await b.api('GET', pathOf('listCommentsBefore', { taskId: task.id, requestId: '', commentId }));
      expectErrorShape(res, 404, 'not_found');
    }
    expect(snapshot(b.maestro)).toBe(before);
  });

  it('P1.02 a body that fails its schema → 400 invalid_input with issues; no task, comment or job row', async () => {
    const b = await testBridge();
    const before = snapshot(b.maestro);
    const cases: [unknown, string][] = [
      [{}, 'instruction'],
      [{ instruction: 5 }, 'instruction'],
      [{ instruction: '   ' }, 'instruction'],
      [{ instruction: 'ok', bogus: true }, ''],
      [{ instruction: 'ok', attachments: [{ name: '../x', mediaType: 'text/plain', data: '' }] }, 'attachments'],
      [{ instruction: 'ok', pieceId: 'no-such-piece' }, 'pieceId'],
      [{ instruction: 'ok', workspacePath: 'relative/path' }, 'workspacePath'],
    ];
    for (const [body, field] of cases) {
      const res = await b.api('POST', '/tasks', body);
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.code).toBe('invalid_input');
      expect(res.json.error.message).toMatch(/\S/);
      expect(Array.isArray(res.json.error.issues)).toBe(true);
      expect(res.json.error.issues.length).toBeGreaterThan(0);
      for (const issue of res.json.error.issues) {
        expect(issue).toEqual({ path: expect.any(Array), message: expect.any(String) });
      }
      if (field) expect(res.json.error.issues.map((i: { path: unknown[] }) => i.path[0])).toContain(field);
    }
    expect(snapshot(b.maestro)).toBe(before);
  });

  it('invalid JSON, a non-object body, or a path param in the body → 400 invalid_input; nothing changes', async () => {
    const b = await testBridge();
    const { task } = b.maestro.invoke('createTask', { instruction: 'x' });
    const before = snapshot(b.maestro);
    for (const text of ['{"instruction": "unterminated', 'not json', '{"a":1,}']) {
      const res = await b.api('POST', '/tasks', text);
      expectErrorShape({ ...res, json: { error: res.json?.error } }, 400, 'invalid_input');
      expect(res.json.error.message).toMatch(/JSON/);
      expect(res.text).not.toContain('unterminated');
    }
    for (const text of ['[1,2]', '"a string"', 'null', '42', 'true']) {
      const res = await b.api('POST', '/tasks', text);
      expect(res.status, text).toBe(400);
      expect(res.json.error.code).toBe('invalid_input');
      expect(res.json.error.message).toMatch(/JSON object/);
    }
    const comment = await b.api('POST', `/tasks/${task.id}/comments`, { taskId: task.id, body: 'hi' });
    expect(comment.status).toBe(400);
    expect(comment.json.error.code).toBe('invalid_input');
    expect(comment.json.error.message).toMatch(/taskId belongs in the path/);
    expect(comment.json.error.issues).toEqual([{ path: ['taskId'], message: expect.any(String) }]);
    const decide = await b.api('POST', `/tasks/${task.id}/tool-requests/treq_x/decide`, {
      requestId: 'treq_y',
      decision: 'deny',
    });
    expect(decide.status).toBe(400);
    expect(snapshot(b.maestro)).toBe(before);
  });

  it('a body over the limit → 413 payload_too_large; nothing changes', async () => {
    const b = await testBridge();
    const before = snapshot(b.maestro);
    const big = JSON.stringify({ instruction: 'x'.repeat(MAX_BODY_BYTES) });
    const res = await b.api('POST', '/tasks', big);
    expectErrorShape(res, 413, 'payload_too_large');
    expect(snapshot(b.maestro)).toBe(before);
    // The server is still answering.
    expect((await b.api('GET', '/health')).status).toBe(200);
  });

  it('a wrong method → 405 with Allow; an unknown route → 404; both with the error shape', async () => {
    const b = await testBridge();
    const { task } = b.maestro.invoke('createTask', { instruction: 'x' });
    for (const [method, p, allow] of [
      ['DELETE', '/tasks', 'GET, POST'],
      ['PUT', '/health', 'GET'],
      ['GET', `/tasks/${task.id}/cancel`, 'POST'],
      ['POST', `/tasks/${task.id}`, 'GET'],
      ['POST', '/events', 'GET'],
    ] as const) {
      const res = await b.api(method, p, method === 'GET' ? undefined : {});
      expectErrorShape(res, 405, 'method_not_allowed');
      expect(res.headers.get('allow')).toBe(allow);
    }
    for (const p of ['/nope', '/tasks/x/y/z', '/', '/health/', `/tasks/${task.id}/comments/extra`]) {
      expectErrorShape(await b.api('GET', p), 404, 'not_found');
    }
    expectErrorShape(await b.api('GET', '/tasks/%E0%A4%A'), 404, 'not_found');
    expect(b.maestro.invoke('getTask', { taskId: task.id }).jobs[0]?.status).toBe('queued');
  });

  it('a caller error answers its own code and status; any other error is 500 internal, its message kept in', async () => {
    const b = await testBridge();
    const invoke = vi.spyOn(b.maestro, 'invoke');
    for (const code of Object.keys(ERROR_STATUS) as ErrorCode[]) {
      invoke.mockImplementationOnce(() => {
        throw new MaestroError(code, `because of ${code}`);
      });
      const res = await b.api('GET', '/tasks');
      expectErrorShape(res, ERROR_STATUS[code], code);
      expect(res.json.error.message).toBe(`because of ${code}`);
    }
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const internal = [
      new IllegalTransitionError('succeeded', 'running'),
      new ConfigFileError('/data/profiles.json', 'is not valid JSON', { form: 'clause' }),
      new TypeError('x is undefined'),
    ];
    for (const error of internal) {
      invoke.mockImplementationOnce(() => {
        throw error;
      });
      const res = await b.api('GET', '/tasks');
      expectErrorShape(res, 500, 'internal');
      expect(res.json.error).toEqual({ code: 'internal', message: 'internal error' });
    }
    expect(logged.mock.calls.map((call) => call[1])).toEqual(internal);
    logged.mockRestore();
    invoke.mockRestore();
    expect((await b.api('GET', '/tasks')).status).toBe(200);
  });

  it('201 for POST /tasks, comments and continue; 200 for cancel and decisions', async () => {
    const b = await testBridge();
    const created = await b.api('POST', '/tasks', { instruction: 'say hi', title: 'Hi' });
    expect(created.status).toBe(201);
    expect(Object.keys(created.json).sort()).toEqual(['job', 'task']);
    expect(created.json.task).toMatchObject({
      title: 'Hi',
      instruction: 'say hi',
      pieceId: 'default',
      status: 'queued',
    });
    expect(created.json.job).toMatchObject({ taskId: created.json.task.id, status: 'queued', waitReason: null });
    const id = created.json.task.id;

    const comment = await b.api('POST', `/tasks/${id}/comments`, { body: 'in French' });
    expect(comment.status).toBe(201);
    expect(comment.json).toMatchObject({
      disposition: 'reused_job',
      comment: { taskId: id, author: 'user', kind: 'comment', body: 'in French' },
      job: { id: created.json.job.id },
    });

    const cancel = await b.api('POST', `/tasks/${id}/cancel`);
    expect(cancel.status).toBe(200);
    expect(cancel.json.job).toMatchObject({ id: created.json.job.id, status: 'cancelled' });

    const cont = await b.api('POST', `/tasks/${id}/continue`, { instruction: 'go on' });
    expect(cont.status).toBe(201);
    expect(cont.json.job).toMatchObject({ taskId: id, status: 'queued', continuedFromJobId: created.json.job.id });

    const list = await b.api('GET', '/tasks');
    expect(list.json.tasks.map((t: { id: string }) => t.id)).toEqual([id]);
    const usage = await b.api('GET', `/tasks/${id}/usage`);
    expect(usage.status).toBe(200);
    expect(usage.json.total).toEqual({ llmCalls: 0, promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0 });
    expect(Array.isArray(usage.json.jobs)).toBe(true);
    expect((await b.api('GET', `/tasks/${id}/transcript`)).json).toEqual({ entries: [] });

    const parked = seedParkedTask(b.maestro);
    const decided = await b.api('POST', `/tasks/${parked.task.id}/tool-requests/${parked.tool.id}/decide`, {
      decision: 'approve',
    });
    expect(decided.status).toBe(200);
    expect(decided.json.request).toMatchObject({ id: parked.tool.id, status: 'approved', scope: 'once' });
    const pkg = await b.api('POST', `/tasks/${parked.task.id}/package-requests/${parked.pkg.id}/decide`, {
      decision: 'deny',
    });
    expect(pkg.status).toBe(200);
    expect(pkg.json.request).toMatchObject({ id: parked.pkg.id, status: 'denied' });
    expect(b.maestro.store.jobs.get(parked.job.id)?.status).toBe('queued');
  });

  it('P1.07 409 shapes: approval_pending, job_not_terminal, already_decided; nothing changes', async () => {
    const b = await testBridge();
    const { task, tool, pkg } = seedParkedTask(b.maestro);
    const before = snapshot(b.maestro);
    const pending = await b.api('POST', `/tasks/${task.id}/comments`, { body: 'hello?' });
    expectErrorShape(pending, 409, 'approval_pending');
    const notTerminal = await b.api('POST', `/tasks/${task.id}/continue`, {});
    expectErrorShape(notTerminal, 409, 'job_not_terminal');
    expect(snapshot(b.maestro)).toBe(before);

    expect(
      (await b.api('POST', `/tasks/${task.id}/tool-requests/${tool.id}/decide`, { decision: 'deny' })).status,
    ).toBe(200);
    const again = await b.api('POST', `/tasks/${task.id}/tool-requests/${tool.id}/decide`, { decision: 'approve' });
    expectErrorShape(again, 409, 'already_decided');
    expect(b.maestro.store.toolRequests.get(tool.id)?.status).toBe('denied');
    expect(
      (await b.api('POST', `/tasks/${task.id}/package-requests/${pkg.id}/decide`, { decision: 'approve' })).status,
    ).toBe(200);
    const pkgAgain = await b.api('POST', `/tasks/${task.id}/package-requests/${pkg.id}/decide`, { decision: 'deny' });
    expectErrorShape(pkgAgain, 409, 'already_decided');
  });
});

describe('bridge: Host, static files, CORS, token', () => {
  it('answers only Host 127.0.0.1:PORT or localhost:PORT (DNS rebinding)', async () => {
    const b = await testBridge({ staticDir: staticFolder().dir });
    const auth = { authorization: `Bearer ${b.token}` };
    for (const host of [`evil.com:${b.port}`, 'evil.com', `127.0.0.1:${b.port + 1}`, `localhost.evil.com:${b.port}`]) {
      for (const p of ['/api/local/health', '/', '/index.html']) {
        const res = await rawRequest(b.port, { path: p, headers: { ...auth, host: host } });
        expect(res.status, `${host} ${p}`).toBe(403);
        expect(JSON.parse(res.text).error.code).toBe('forbidden');
      }
    }
    const missing = await rawRequest(b.port, { path: '/api/local/health', headers: auth, setHost: false });
    // Node's parser already refuses an HTTP/1.1 request without Host (400); either way it is not served.
    expect([400, 403]).toContain(missing.status);
    for (const host of [`localhost:${b.port}`, `127.0.0.1:${b.port}`, `LOCALHOST:${b.port}`]) {
      const res = await rawRequest(b.port, { path: '/api/local/health', headers: { ...auth, host } });
      expect(res.status, host).toBe(200);
    }
  });

  it('serves the renderer at / without a token, with a CSP, and nothing outside its folder', async () => {
    const { dir, secret } = staticFolder();
    const b = await testBridge({ staticDir: dir });
    const index = await fetch(`${b.url}/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await index.text()).toContain('<title>MAESTRO</title>');
    const js = await fetch(`${b.url}/assets/app.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);

    for (const p of [
      '/../secret.txt',
      '/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/%2E%2E/secret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e%2fsecret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
      '//..//secret.txt',
      '/link.txt',
      '/assets/',
      '/index.html%00.js',
      '/%E0%A4%A',
      '/../package.json',
      '/%2e%2e/package.json',
      '/nope.html',
    ]) {
      const res = await rawRequest(b.port, { path: p, headers: { host: `127.0.0.1:${b.port}` } });
      expect(res.status, p).toBe(404);
      expect(res.text).not.toContain(secret);
      expect(JSON.parse(res.text).error.code).toBe('not_found');
    }
    // Static files are GET only.
    expect((await fetch(`${b.url}/index.html`, { method: 'POST' })).status).toBe(404);
  });

  it('without a static folder / answers 404', async () => {
    const b = await testBridge();
    expect((await fetch(`${b.url}/`)).status).toBe(404);
  });

  it('sends no Access-Control-Allow-Origin anywhere and never echoes the token', async () => {
    const b = await testBridge({ staticDir: staticFolder().dir });
    const { task, tool } = seedParkedTask(b.maestro);
    const origin = { origin: 'https://evil.example' };
    const responses: { headers: Headers; text: string }[] = [];
    const record = async (res: Response | Promise<Response>) => {
      const r = await toApiResponse(await res);
      responses.push(r);
      return r;
    };
    const withToken = { authorization: `Bearer ${b.token}`, ...origin };
    for (const route of ROUTES) {
      const body = VALID_BODY[route.name];
      await record(
        fetch(`${b.url}/api/local${pathOf(route.name, { taskId: task.id, requestId: tool.id })}`, {
          method: route.method,
          headers: withToken,
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      );
    }
    await record(fetch(`${b.url}/`, { headers: origin }));
    await record(fetch(`${b.url}/api/local/health`, { method: 'OPTIONS', headers: origin }));
    await record(fetch(`${b.url}/api/local/health`, { method: 'OPTIONS', headers: withToken }));
    await record(fetch(`${b.url}/api/local/health?token=${b.token}`, { headers: origin }));
    await record(fetch(`${b.url}/api/local/${b.token}`, { headers: withToken }));
    await record(fetch(`${b.url}/api/local/tasks/${b.token}`, { headers: withToken }));
    await record(
      fetch(`${b.url}/api/local/tasks/${b.token}/comments`, {
        method: 'POST',
        headers: withToken,
        body: '{"body":"x"}',
      }),
    );
    await record(fetch(`${b.url}/${b.token}`, { headers: origin }));
    await record(
      fetch(`${b.url}/api/local/tasks`, { method: 'POST', headers: withToken, body: `{"instruction":"${b.token}` }),
    );
    await record(
      fetch(`${b.url}/api/local/tasks`, {
        method: 'POST',
        headers: withToken,
        body: JSON.stringify({ [b.token]: 1, instruction: 'x' }),
      }),
    );
    await record(
      fetch(`${b.url}/api/local/tasks`, {
        method: 'POST',
        headers: withToken,
        body: JSON.stringify({ instruction: 'x', pieceId: b.token }),
      }),
    );
    await record(fetch(`${b.url}/api/local/tasks`, { headers: { authorization: `Bearer ${b.token}x`, ...origin } }));
    const controller = new AbortController();
    const sse = await fetch(`${b.url}/api/local/events?token=${b.token}`, {
      headers: origin,
      signal: controller.signal,
    });
    responses.push({ headers: sse.headers, text: '' });
    controller.abort();

    expect(responses.length).toBeGreaterThan(20);
    for (const r of responses) {
      for (const name of r.headers.keys()) expect(name).not.toMatch(/^access-control-/);
      expect(r.text).not.toContain(b.token);
    }
  });
});

/** A built-renderer stand-in: index.html, assets/app.js, a symlink out, and a secret beside the folder. */
function staticFolder(): { dir: string; secret: string } {
  const root = tempDir();
  const secret = 'TOP-SECRET-NEIGHBOUR';
  fs.writeFileSync(path.join(root, 'secret.txt'), secret);
  const dir = path.join(root, 'renderer');
  fs.mkdirSync(path.join(dir, 'assets'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><title>MAESTRO</title><script src="assets/app.js"></script>',
  );
  fs.writeFileSync(path.join(dir, 'assets', 'app.js'), 'console.log("hi")');
  fs.symlinkSync(path.join(root, 'secret.txt'), path.join(dir, 'link.txt'));
  return { dir, secret };
}

// OPERATION_NAMES is imported so this file fails to compile if VALID_BODY falls behind the contract.
void OPERATION_NAMES;
void (null as unknown as TestBridge);

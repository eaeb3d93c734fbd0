// The HTTP bridge against a real server on 127.0.0.1:0: health, auth, Host check, static files, CORS (refusals: server-errors.test.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../../src-shared/contract';
import { expectErrorShape, pathOf, seedParkedTask, snapshot, VALID_BODY } from '../../test-support/bridge-fixtures';
import { rawRequest, type TestBridge, testBridge, toApiResponse } from '../../test-support/bridge-harness';
import { acceptWorkspaceSettings, tempDir } from '../../test-support/temp-maestro';
import { ROUTES } from './routes';
import { CONTENT_SECURITY_POLICY } from './static-files';

describe('bridge: health and pieces', () => {
  it("P1.28 GET /health → { ok: true, version, host } (host: the machine's name unless --host-name names it)", async () => {
    const b = await testBridge();
    const res = await b.api('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true, version: 'test', host: os.hostname() });
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
    acceptWorkspaceSettings(b.maestro, workspace);

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

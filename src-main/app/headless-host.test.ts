// The headless host as a process: `node --import tsx src-main/headless.ts …` (the source entry; no build needed).
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeSelfSignedCert } from '../../test-support/self-signed-cert';
import { tempDir, testMaestro } from '../../test-support/temp-maestro';
import type { BridgeInfo } from './bridge-file';

const ROOT = path.resolve(__dirname, '..', '..');
const ENTRY = path.join(ROOT, 'src-main', 'headless.ts');
const LISTENING = /^MAESTRO bridge listening on (http:\/\/127\.0\.0\.1:(\d+))$/m;

interface Host {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running = new Set<ChildProcess>();
function launch(args: string[], extraEnv: Record<string, string> = {}): Host {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('MAESTRO_')) delete env[key];
  Object.assign(env, extraEnv);
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args], { cwd: ROOT, env });
  running.add(child);
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (c: string) => {
    out += c;
  });
  child.stderr?.setEncoding('utf8').on('data', (c: string) => {
    err += c;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Starts a host and waits for its "listening" line; fails with its output if it exits first. */
async function start(
  dataDir: string,
  extra: string[] = [],
  env: Record<string, string> = {},
  port: string | null = '0',
): Promise<Host & { url: string; info: BridgeInfo }> {
  const host = launch(['--data-dir', dataDir, ...(port === null ? [] : ['--port', port]), ...extra], env);
  const deadline = Date.now() + 20_000;
  let match: RegExpExecArray | null = null;
  while (!match) {
    match = LISTENING.exec(host.stdout());
    if (match) break;
    if (host.child.exitCode !== null || Date.now() > deadline) {
      host.child.kill('SIGKILL');
      throw new Error(`the host did not start:\n${host.stdout()}\n${host.stderr()}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  const info = JSON.parse(fs.readFileSync(path.join(dataDir, 'bridge.json'), 'utf8')) as BridgeInfo;
  return { ...host, url: match[1] as string, info };
}

/** Runs a host that must fail to start; returns its exit and output. */
async function failing(args: string[]) {
  const host = launch(args);
  const timer = setTimeout(() => host.child.kill('SIGKILL'), 20_000);
  const exit = await host.exited;
  clearTimeout(timer);
  return { ...exit, stdout: host.stdout(), stderr: host.stderr() };
}

const call = async (h: { url: string; info: BridgeInfo }, method: string, p: string, body?: unknown) => {
  const res = await fetch(`${h.url}/api/local${p}`, {
    method,
    headers: { authorization: `Bearer ${h.info.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: responses are inspected freely
  return { status: res.status, json: (await res.json()) as any };
};

async function stop(host: Host, signal: NodeJS.Signals) {
  host.child.kill(signal);
  return host.exited;
}

// A host left running by a failed assertion must not outlive the test file.
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

// Each start compiles the entry with tsx (a few seconds on a busy machine): generous timeouts.
describe('headless host', { timeout: 60_000 }, () => {
  it('P1.28 P2.39 prints its URL, writes bridge.json (0600), answers /health, exits 0 on SIGTERM and removes bridge.json', async () => {
    const root = tempDir();
    const dataDir = path.join(root, 'data', 'nested');
    const host = await start(dataDir, ['--workspace', root]);

    const lines = host.stdout().trim().split('\n');
    expect(lines).toEqual([`MAESTRO bridge listening on ${host.url}`]);
    const file = path.join(dataDir, 'bridge.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(dataDir).mode & 0o077).toBe(0);
    expect(Object.keys(host.info).sort()).toEqual(['pid', 'token', 'url']);
    expect(host.info.url).toBe(host.url);
    expect(host.info.pid).toBe(host.child.pid);
    expect(host.info.token).toMatch(/^[\w-]{32,}$/);
    expect(host.stdout()).not.toContain(host.info.token);

    const health = await call(host, 'GET', '/health');
    expect(health).toEqual({ status: 200, json: { ok: true, version: expect.any(String), host: os.hostname() } });
    expect((await fetch(`${host.url}/api/local/health`)).status).toBe(401);
    const created = await call(host, 'POST', '/tasks', { instruction: 'survive a clean stop' });
    expect(created.status).toBe(201);
    expect(created.json.task.workspacePath).toBe(fs.realpathSync(root));

    expect(await stop(host, 'SIGTERM')).toEqual({ code: 0, signal: null });
    expect(fs.existsSync(file)).toBe(false);
    expect(host.stderr()).toBe('');

    // The state was persisted: the next start has it.
    const again = await start(dataDir);
    const tasks = await call(again, 'GET', '/tasks');
    expect(tasks.json.tasks.map((t: { id: string }) => t.id)).toEqual([created.json.task.id]);
    expect(await stop(again, 'SIGINT')).toEqual({ code: 0, signal: null });
  });

  it('P2.39 SIGTERM while an LLM call hangs: the call is aborted, exit 0, the job resumes on the next start', async () => {
    // An OpenAI-compatible endpoint that accepts the request and never answers.
    const held: http.ServerResponse[] = [];
    let requests = 0;
    const llm = http.createServer((req, res) => {
      requests++;
      req.resume();
      held.push(res);
    });
    await new Promise<void>((resolve) => llm.listen(0, '127.0.0.1', resolve));
    const { port } = llm.address() as net.AddressInfo;
    try {
      const dataDir = tempDir();
      const host = await start(dataDir, [], {
        MAESTRO_LLM_BASE_URL: `http://127.0.0.1:${port}/v1`,
        MAESTRO_LLM_API_KEY: 'sk-test',
        MAESTRO_LLM_MODEL: 'scripted',
      });
      const created = await call(host, 'POST', '/tasks', { instruction: 'take your time' });
      expect(created.status).toBe(201);
      await expect.poll(() => requests, { timeout: 20_000 }).toBeGreaterThan(0);
      expect((await call(host, 'GET', `/tasks/${created.json.task.id}`)).json.task.status).toBe('running');

      const stopped = Date.now();
      expect(await stop(host, 'SIGTERM')).toEqual({ code: 0, signal: null });
      expect(Date.now() - stopped).toBeLessThan(15_000);
      expect(fs.existsSync(path.join(dataDir, 'bridge.json'))).toBe(false);

      // Restarted without an LLM (no Worker): the job waits to be resumed, neither running nor failed.
      const again = await start(dataDir);
      const got = await call(again, 'GET', `/tasks/${created.json.task.id}`);
      expect(got.json.jobs).toHaveLength(1);
      expect(['queued', 'retry']).toContain(got.json.jobs[0].status);
      expect(await stop(again, 'SIGTERM')).toEqual({ code: 0, signal: null });
    } finally {
      for (const res of held) res.destroy();
      llm.close();
    }
  });

  it('P1.27 SIGKILL right after the 201s of a create and a comment loses neither', async () => {
    const dataDir = tempDir();
    const host = await start(dataDir);
    const created = await call(host, 'POST', '/tasks', { instruction: 'must survive' });
    expect(created.status).toBe(201);
    const taskId = created.json.task.id as string;
    const comment = await call(host, 'POST', `/tasks/${taskId}/comments`, { body: 'me too' });
    expect(comment.status).toBe(201);
    host.child.kill('SIGKILL');
    expect(await host.exited).toEqual({ code: null, signal: 'SIGKILL' });

    const again = await start(dataDir);
    expect(again.info.pid).toBe(again.child.pid);
    // The token is kept across restarts (host.json), so a tab or script that knew it goes on.
    expect(again.info.token).toBe(host.info.token);
    const got = await call(again, 'GET', `/tasks/${taskId}`);
    expect(got.status).toBe(200);
    expect(got.json.task).toMatchObject({ id: taskId, instruction: 'must survive', status: 'queued' });
    expect(got.json.jobs).toEqual([expect.objectContaining({ id: created.json.job.id, status: 'queued' })]);
    expect(got.json.comments.map((c: { id: string }) => c.id)).toContain(comment.json.comment.id);
    expect(got.json.comments.map((c: { kind: string; body: string }) => [c.kind, c.body])).toEqual([
      ['instruction', 'must survive'],
      ['comment', 'me too'],
    ]);
    expect(await stop(again, 'SIGTERM')).toEqual({ code: 0, signal: null });
  });

  it('P1.27 SIGKILL right after the 200 of a decision loses nothing: the request stays decided, the job queued', async () => {
    const dataDir = tempDir();
    // A task parked on a tool request, prepared in the same data dir before the host starts.
    const seeded = testMaestro({ dataDir });
    const { task, job } = seeded.invoke('createTask', { instruction: 'needs approval' });
    seeded.store.jobs.transition(job.id, 'queued', 'running', { workerId: 'w-gone' });
    seeded.store.jobs.transition(job.id, 'running', 'waiting_human', { waitReason: 'tool_request' });
    const request = seeded.store.toolRequests.insert(task.id, job.id, {
      callId: 'call_1',
      tool: 'run_command',
      args: { command: 'ls' },
      summary: 'run ls',
    });
    await seeded.close();

    const host = await start(dataDir);
    const decided = await call(host, 'POST', `/tasks/${task.id}/tool-requests/${request.id}/decide`, {
      decision: 'approve',
    });
    expect(decided.status).toBe(200);
    host.child.kill('SIGKILL');
    await host.exited;

    const again = await start(dataDir);
    const requests = await call(again, 'GET', `/tasks/${task.id}/tool-requests`);
    expect(requests.json.requests).toEqual([expect.objectContaining({ id: request.id, status: 'approved' })]);
    const got = await call(again, 'GET', `/tasks/${task.id}`);
    expect(got.json.jobs).toEqual([expect.objectContaining({ id: job.id, status: 'queued' })]);
    expect(await stop(again, 'SIGTERM')).toEqual({ code: 0, signal: null });
  });

  it('--print-ui-url (what `npm run headless` passes) prints the page address with its token; without it the token stays out of stdout', async () => {
    const dataDir = tempDir();
    const host = await start(dataDir, ['--print-ui-url']);
    await expect.poll(() => host.stdout().trim().split('\n').length).toBe(2);
    expect(host.stdout().trim().split('\n')).toEqual([
      `MAESTRO bridge listening on ${host.url}`,
      `MAESTRO UI: ${host.url}/#token=${host.info.token}`,
    ]);
    expect(await stop(host, 'SIGTERM')).toEqual({ code: 0, signal: null });
  });

  it('a data dir that is a file → non-zero exit, stderr names the path', async () => {
    const file = path.join(tempDir(), 'not-a-dir');
    fs.writeFileSync(file, 'x');
    const result = await failing(['--data-dir', file, '--port', '0']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(file);
    expect(result.stdout).not.toMatch(LISTENING);
  });

  it('a corrupt maestro.db → non-zero exit, stderr names the DB path', async () => {
    const dataDir = tempDir();
    const db = path.join(dataDir, 'maestro.db');
    fs.writeFileSync(db, 'this is not a SQLite database, not even close. '.repeat(200));
    const result = await failing(['--data-dir', dataDir, '--port', '0']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(db);
    expect(fs.existsSync(path.join(dataDir, 'bridge.json'))).toBe(false);
  });

  it('bad arguments → non-zero exit with a clear message', async () => {
    const dataDir = tempDir();
    const cases: [string[], RegExp][] = [
      [['--data-dir', dataDir, '--port', 'abc'], /--port must be a number from 0 to 65535, got "abc"/],
      [['--data-dir', dataDir, '--port', '70000'], /--port must be a number from 0 to 65535, got "70000"/],
      [['--data-dir', dataDir, '--port=-1'], /--port must be a number from 0 to 65535, got "-1"/],
      [['--data-dir', dataDir, '--port', '8.5'], /--port must be a number/],
      [['--data-dir', dataDir, '--port='], /--port must be a number/],
      [['--port', '0'], /--data-dir is required/],
      [
        ['--data-dir', dataDir, '--workspace', path.join(dataDir, 'missing')],
        /--workspace .*missing is not an existing folder/,
      ],
      [['--data-dir', dataDir, '--bogus'], /bogus/],
    ];
    // Two at a time: the cores are shared.
    const results: Awaited<ReturnType<typeof failing>>[] = [];
    for (let i = 0; i < cases.length; i += 2) {
      results.push(...(await Promise.all(cases.slice(i, i + 2).map(([args]) => failing(args)))));
    }
    for (const [i, result] of results.entries()) {
      const [args, message] = cases[i] as [string[], RegExp];
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr, args.join(' ')).toMatch(/^MAESTRO could not start: /);
      expect(result.stderr, args.join(' ')).toMatch(message);
    }
  });

  it('serving beyond loopback without TLS, or with a certificate or key that does not check out → exit 1 naming the flag and file, nothing started', async () => {
    // Each way a certificate or key can be wrong is in tls-identity.test.ts; here, that the host stops on them.
    const cert = makeSelfSignedCert();
    const other = makeSelfSignedCert();
    const cases: [string[], RegExp][] = [
      [['--bind', '0.0.0.0'], /--bind 0\.0\.0\.0 serves beyond this machine: give --tls-cert FILE and --tls-key FILE/],
      [
        ['--bind', '0.0.0.0', '--tls-cert', cert.certFile, '--tls-key', other.keyFile],
        new RegExp(`--tls-key ${other.keyFile} is not the private key of the certificate in ${cert.certFile}`),
      ],
      [['--bind', '0.0.0.0', '--tls-cert', cert.certFile], /--tls-cert and --tls-key go together/],
    ];
    const dataDirs = cases.map(() => path.join(tempDir(), 'data'));
    const results: Awaited<ReturnType<typeof failing>>[] = [];
    for (const [i, [args]] of cases.entries()) {
      results.push(await failing(['--data-dir', dataDirs[i] as string, '--port', '0', ...args]));
    }
    for (const [i, result] of results.entries()) {
      const [args, message] = cases[i] as [string[], RegExp];
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr, args.join(' ')).toMatch(/^MAESTRO could not start: /);
      expect(result.stderr, args.join(' ')).toMatch(message);
      expect(result.stdout, args.join(' ')).not.toMatch(LISTENING);
      // Checked before the core opens: no data dir, no DB, no bridge.json.
      expect(fs.existsSync(dataDirs[i] as string), args.join(' ')).toBe(false);
    }
    for (const made of [cert, other]) fs.rmSync(made.dir, { recursive: true, force: true });
  }, 120_000);

  it('a port already in use → non-zero exit naming the port', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as net.AddressInfo;
    try {
      const result = await failing(['--data-dir', tempDir(), '--port', String(port)]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`cannot listen on 127.0.0.1:${port}`);
    } finally {
      blocker.close();
    }
  });
  it('restarted without --port: the same address and token (host.json, 0600); --new-token replaces the token', async () => {
    const dataDir = tempDir();
    const first = await start(dataDir, [], {}, null);
    const kept = JSON.parse(fs.readFileSync(path.join(dataDir, 'host.json'), 'utf8'));
    expect(kept).toEqual({ port: Number(new URL(first.url).port), token: first.info.token });
    expect(fs.statSync(path.join(dataDir, 'host.json')).mode & 0o777).toBe(0o600);
    expect(await stop(first, 'SIGTERM')).toEqual({ code: 0, signal: null });

    const again = await start(dataDir, [], {}, null);
    expect(again.url).toBe(first.url);
    expect((await call({ url: again.url, info: first.info }, 'GET', '/health')).status).toBe(200);
    expect(again.stdout()).not.toContain('MAESTRO:');
    expect(await stop(again, 'SIGTERM')).toEqual({ code: 0, signal: null });

    const renewed = await start(dataDir, ['--new-token'], {}, null);
    expect(renewed.url).toBe(first.url);
    expect(renewed.info.token).not.toBe(first.info.token);
    expect((await call({ url: renewed.url, info: first.info }, 'GET', '/health')).status).toBe(401);
    expect((await call(renewed, 'GET', '/health')).status).toBe(200);
    expect(await stop(renewed, 'SIGTERM')).toEqual({ code: 0, signal: null });
  });

  it('the kept port taken by someone else: a free one, said at start, the token kept; a corrupt host.json is said and replaced', async () => {
    const dataDir = tempDir();
    const first = await start(dataDir, [], {}, null);
    const port = Number(new URL(first.url).port);
    expect(await stop(first, 'SIGTERM')).toEqual({ code: 0, signal: null });

    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    try {
      const moved = await start(dataDir, [], {}, null);
      expect(moved.url).not.toBe(first.url);
      expect(moved.info.token).toBe(first.info.token);
      const newPort = Number(new URL(moved.url).port);
      expect(moved.stdout()).toContain(`port ${port} is taken: listening on ${newPort} instead`);
      const kept = JSON.parse(fs.readFileSync(path.join(dataDir, 'host.json'), 'utf8'));
      expect(kept.port).toBe(newPort);
      expect(await stop(moved, 'SIGTERM')).toEqual({ code: 0, signal: null });
    } finally {
      blocker.close();
    }

    fs.writeFileSync(path.join(dataDir, 'host.json'), '{"port": "not a port"');
    const fresh = await start(dataDir, [], {}, null);
    expect(fresh.stdout()).toMatch(/host\.json is not JSON: a new address and token/);
    expect(fresh.info.token).not.toBe(first.info.token);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'host.json'), 'utf8')).token).toBe(fresh.info.token);
    expect(await stop(fresh, 'SIGTERM')).toEqual({ code: 0, signal: null });
  });
});

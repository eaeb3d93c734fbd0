// The desktop as a client of a remote host (Settings → Hosts), against a REAL headless host process serving TLS with a
// self-signed certificate: chosen, checked and saved (the token sealed), then every operation and the event stream go
// to it; a dropped link and a restarted host resume the stream from the last event id without losing or repeating an
// event; a wrong token, an untrusted certificate, a wrong pin and an unreachable address are refused, naming what
// failed, with nothing saved and the window still showing the host it showed.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MaestroEvent } from '../../src-shared/events';
import type { HostView } from '../../src-shared/hosts';
import type { CoreStatus } from '../../src-shared/preload-api';
import { type HostProcess, startHostProcess } from '../../test-support/headless-process';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../../test-support/scripted-llm-server';
import { makeSelfSignedCert, type SelfSignedCert } from '../../test-support/self-signed-cert';
import { tempDir, testMaestro } from '../../test-support/temp-maestro';
import { inProcessCore } from '../app/core-connection';
import type { Maestro } from '../app/create-maestro';
import { fileSecretBox } from '../llm/secret-box';
import { HostChooser } from './host-chooser';
import { connectHost } from './host-connection';
import { type HostEndpoint, hostRequest } from './host-endpoint';
import { HOSTS_FILE, loadHost } from './host-file';

/** The events the log keeps, each sent once with its id (a turn being generated is sent again, whole, on reconnect). */
const PERSISTED = new Set(['task.created', 'task.changed', 'job.changed', 'comment.created']);

const complete = { toolCalls: [{ name: 'complete', arguments: { status: 'success', message: 'done' } }] };

async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A TCP relay to the host that the test can cut (every connection dropped, new ones refused) and mend. */
async function relay(targetPort: number) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      const listening = net.createServer((socket) => {
        const upstream = net.connect(targetPort, '127.0.0.1');
        for (const s of [socket, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => {});
        }
        socket.pipe(upstream).pipe(socket);
        socket.on('close', () => upstream.destroy());
        upstream.on('close', () => socket.destroy());
      });
      server = listening;
      listening.listen(port, '127.0.0.1', () => {
        port = (listening.address() as net.AddressInfo).port;
        resolve();
      });
    });
  await listen();
  return {
    get port() {
      return port;
    },
    async cut() {
      const closed = new Promise<void>((resolve) => server?.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
    mend: listen,
  };
}

describe('the desktop as a client of a host over TLS', { timeout: 120_000 }, () => {
  let cert: SelfSignedCert;
  let llm: ScriptedLlmServer;
  let host: HostProcess;
  let hostDir: string;
  let workspace: string;
  let port: number;
  let local: Maestro;
  const hostArgs = () => [
    '--bind',
    '127.0.0.1',
    '--tls-cert',
    cert.certFile,
    '--tls-key',
    cert.keyFile,
    '--host-name',
    'build-box',
  ];
  const start = async (extra: string[] = []) =>
    startHostProcess(
      path.join(hostDir, 'data'),
      workspace,
      { MAESTRO_LLM_BASE_URL: llm.baseURL, MAESTRO_LLM_API_KEY: 'sk-test', MAESTRO_LLM_MODEL: 'scripted' },
      [...hostArgs(), ...extra],
    );
  const tls = (over: Record<string, unknown> = {}) => ({
    kind: 'tls',
    url: `https://localhost:${port}`,
    token: host.token,
    certFile: cert.certFile,
    ...over,
  });
  const desktop = (dataDir = tempDir('maestro-desktop-')) => {
    const chooser = new HostChooser(inProcessCore(local), {
      dataDir,
      box: fileSecretBox(path.join(dataDir, 'secret.key')),
      connection: { reconnect: { baseDelayMs: 100, maxDelayMs: 400 } },
    });
    return { chooser, dataDir };
  };
  const endpoint = (): HostEndpoint => ({ url: `https://localhost:${port}`, token: host.token, ca: cert.cert });

  beforeAll(async () => {
    cert = makeSelfSignedCert(['DNS:localhost', 'IP:127.0.0.1']);
    llm = await startScriptedLlmServer();
    hostDir = fs.mkdtempSync(path.join(fs.realpathSync(cert.dir), 'host-'));
    workspace = fs.mkdtempSync(path.join(hostDir, 'ws-'));
    host = await start();
    port = Number(new URL(host.url).port);
    local = testMaestro();
  }, 60_000);
  afterAll(async () => {
    await local?.close();
    host.child.kill('SIGTERM');
    await host.exited;
    await llm.close();
    fs.rmSync(cert.dir, { recursive: true, force: true });
  });

  it('P1.28 P10.14 P10.11 chosen with its certificate file: checked, saved with the token sealed, and every operation and event then goes to the host', async () => {
    const { chooser, dataDir } = desktop();
    expect(chooser.current().kind).toBe('local');
    const events: MaestroEvent[] = [];
    chooser.connection.onEvent((e) => events.push(e));

    const chosen = await chooser.choose(tls());
    expect(chosen).toEqual({
      ok: true,
      value: { kind: 'tls', name: 'build-box', address: `https://localhost:${port}` } satisfies HostView,
    });
    expect(chooser.current().name).toBe('build-box');
    // Saved, the token sealed: not in clear anywhere in the file, and it opens again from it.
    const saved = fs.readFileSync(path.join(dataDir, HOSTS_FILE), 'utf8');
    expect(saved).not.toContain(host.token);
    expect(fs.statSync(path.join(dataDir, HOSTS_FILE)).mode & 0o777).toBe(0o600);
    expect(loadHost(dataDir, fileSecretBox(path.join(dataDir, 'secret.key'))).saved?.choice).toMatchObject({
      token: host.token,
    });

    await waitFor('the event stream', () => chooser.remoteConnection?.streaming);
    llm.push(complete);
    const created = await chooser.connection.call('createTask', { instruction: 'remote work' });
    expect(created.ok).toBe(true);
    const taskId = (created as { value: { task: { id: string } } }).value.task.id;
    // The task is the host's: this computer's core has no such task.
    expect((await inProcessCore(local).call('getTask', { taskId })).ok).toBe(false);
    expect(await chooser.connection.call('getTask', { taskId })).toMatchObject({
      ok: true,
      value: { task: { id: taskId } },
    });
    await waitFor('the job succeeded event', () =>
      events.some((e) => e.type === 'job.changed' && e.taskId === taskId && e.job.status === 'succeeded'),
    );
    expect(events.some((e) => e.type === 'task.created' && e.taskId === taskId)).toBe(true);
    // A refusal of the host comes back as its own error.
    expect(await chooser.connection.call('getTask', { taskId: 'no-such-task' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });

    // Back to this computer: saved as such, and the host's task is not there.
    expect(await chooser.choose({ kind: 'local' })).toMatchObject({ ok: true, value: { kind: 'local' } });
    expect((await chooser.connection.call('getTask', { taskId })).ok).toBe(false);
    expect(loadHost(dataDir, fileSecretBox(path.join(dataDir, 'secret.key'))).saved).toBeNull();
  });

  it('the saved host is shown again on the next start', async () => {
    const { chooser, dataDir } = desktop();
    expect((await chooser.choose(tls())).ok).toBe(true);
    await chooser.connection.close();
    const again = desktop(dataDir).chooser;
    expect(await again.restore()).toBeUndefined();
    expect(again.current()).toMatchObject({ kind: 'tls', name: 'build-box' });
    expect(await again.connection.call('health', {})).toMatchObject({ ok: true, value: { host: 'build-box' } });
    await again.connection.use(null);
  });

  it('P10.15 a dropped link: the stream comes back from its last event id; the events made meanwhile arrive once each, none lost', async () => {
    const cutter = await relay(port);
    const statuses: CoreStatus[] = [];
    const connection = connectHost(
      async () => ({
        endpoint: { ...endpoint(), url: `https://localhost:${cutter.port}`, hostHeader: `localhost:${port}` },
        close: async () => {},
      }),
      { name: 'build-box', dataDir: tempDir(), reconnect: { baseDelayMs: 100, maxDelayMs: 200 } },
    );
    const events: MaestroEvent[] = [];
    connection.onEvent((e) => events.push(e));
    connection.onStatus((s) => statuses.push(s));
    await waitFor('the event stream', () => connection.streaming);
    llm.push(complete);
    const first = await connection.call('createTask', { instruction: 'before the drop' });
    expect(first.ok).toBe(true);
    await waitFor('an event with an id', () => connection.lastEventId);
    const seenBefore = connection.lastEventId as number;

    await cutter.cut();
    await waitFor('the drop noticed', () => statuses.some((s) => s.state === 'restarting'));
    expect(statuses.find((s) => s.state === 'restarting')).toMatchObject({ host: 'build-box' });
    // Made while the window's link is down, straight on the host.
    const during: string[] = [];
    for (const instruction of ['while down 1', 'while down 2']) {
      llm.push(complete);
      const answer = await hostRequest(endpoint(), { method: 'POST', path: '/api/local/tasks', body: { instruction } });
      expect(answer.status).toBe(201);
      during.push((answer.json as { task: { id: string } }).task.id);
    }
    await cutter.mend();
    for (const taskId of during) {
      await waitFor(`the job of ${taskId}`, () =>
        events.some((e) => e.type === 'job.changed' && e.taskId === taskId && e.job.status === 'succeeded'),
      );
    }
    expect(statuses.at(-1)).toEqual({ state: 'running' });
    // Every event of the log after the last one seen before the drop, none missing, in order; each once.
    const seqs = [...new Set(events.map((e) => e.seq).filter((s) => s > seenBefore))];
    expect(seqs.length).toBeGreaterThan(4);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => seenBefore + 1 + i));
    const persisted = events.filter((e) => PERSISTED.has(e.type) && e.seq > seenBefore).map((e) => e.seq);
    expect(new Set(persisted).size).toBe(persisted.length);
    await connection.close();
    await cutter.cut();
  });

  it('P10.15 the host restarted on its port: the stream reconnects by itself and resumes from the last id; an app started while it was down shows it and reaches it once back', async () => {
    const { chooser, dataDir } = desktop();
    expect((await chooser.choose(tls())).ok).toBe(true);
    const events: MaestroEvent[] = [];
    chooser.connection.onEvent((e) => events.push(e));
    const remote = chooser.remoteConnection;
    if (!remote) throw new Error('no remote connection');
    await waitFor('the event stream', () => remote.streaming);
    llm.push(complete);
    const before = await chooser.connection.call('createTask', { instruction: 'before the restart' });
    expect(before.ok).toBe(true);
    const beforeId = (before as { value: { task: { id: string } } }).value.task.id;
    // Its job ends before the restart: the scripted reply pushed for the next task is that task's.
    await waitFor('the first task done over the stream', () =>
      events.some((e) => e.type === 'job.changed' && e.taskId === beforeId && e.job.status === 'succeeded'),
    );

    host.child.kill('SIGTERM');
    expect(await host.exited).toEqual({ code: 0, signal: null });
    expect(await chooser.connection.call('health', {})).toMatchObject({
      ok: false,
      error: { code: 'core_restarting', message: expect.stringContaining('build-box cannot be reached') },
    });
    const lastBefore = remote.lastEventId as number;
    // The app started meanwhile: the saved host is shown, not dropped for this computer.
    const { chooser: startedWhileDown } = desktop(dataDir);
    expect(await startedWhileDown.restore()).toBeUndefined();
    expect(startedWhileDown.current()).toMatchObject({ kind: 'tls', name: 'build-box' });
    expect((await startedWhileDown.connection.call('health', {})).ok).toBe(false);
    host = await start(['--port', String(port)]);
    expect(await startedWhileDown.connection.call('health', {})).toMatchObject({
      ok: true,
      value: { host: 'build-box' },
    });
    await startedWhileDown.connection.use(null);
    llm.push(complete);
    const after = await chooser.connection.call('createTask', { instruction: 'after the restart' });
    expect(after.ok).toBe(true);
    const taskId = (after as { value: { task: { id: string } } }).value.task.id;
    await waitFor('the new task over the resumed stream', () =>
      events.some((e) => e.type === 'job.changed' && e.taskId === taskId && e.job.status === 'succeeded'),
    );
    const seqs = [...new Set(events.map((e) => e.seq).filter((s) => s > lastBefore))];
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => lastBefore + 1 + i));
    const persisted = events.filter((e) => PERSISTED.has(e.type) && e.seq > lastBefore).map((e) => e.seq);
    expect(new Set(persisted).size).toBe(persisted.length);
    await chooser.connection.use(null);
  });

  it('a wrong token, an untrusted certificate, a wrong pin or an unreachable address: a clear error naming the field; nothing saved, the window unchanged', async () => {
    const { chooser, dataDir } = desktop();
    const other = makeSelfSignedCert(['DNS:localhost']);
    const closedPort = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const cases: [string, Record<string, unknown>, string, RegExp][] = [
      ['wrong token', { token: 'not-the-token' }, 'token', /refused the token \(HTTP 401\)/],
      [
        'system roots only',
        { certFile: undefined },
        'certFile',
        /certificate of https:\/\/localhost:\d+ is not trusted/,
      ],
      ['another certificate', { certFile: other.certFile }, 'certFile', /is not trusted/],
      [
        'a missing certificate file',
        { certFile: path.join(other.dir, 'nope.pem') },
        'certFile',
        /cannot be read \(ENOENT\)/,
      ],
      ['a key file given as the certificate', { certFile: other.keyFile }, 'certFile', /is not a PEM certificate/],
      ['another pin', { certFile: undefined, spkiPin: other.spkiPin }, 'spkiPin', /SPKI pin is .*, not /],
      [
        'nothing listening',
        { url: `https://localhost:${closedPort}` },
        'url',
        /cannot reach https:\/\/localhost:\d+: ECONNREFUSED/,
      ],
      ['plain http', { url: `http://localhost:${port}` }, 'url', /must start with https:\/\//],
    ];
    for (const [label, over, field, message] of cases) {
      const answer = await chooser.choose(tls(over));
      expect(answer.ok, label).toBe(false);
      if (answer.ok) continue;
      expect(answer.error.code, label).toBe('invalid_input');
      expect(answer.error.message, label).toMatch(message);
      expect(answer.error.issues?.[0]?.path, label).toEqual([field]);
      expect(JSON.stringify(answer), label).not.toContain(host.token);
      expect(fs.existsSync(path.join(dataDir, HOSTS_FILE)), label).toBe(false);
      expect(chooser.current().kind, label).toBe('local');
    }
    // The right pin is trusted by itself (no certificate file).
    expect(await chooser.choose(tls({ certFile: undefined, spkiPin: cert.spkiPin }))).toMatchObject({
      ok: true,
      value: { name: 'build-box' },
    });
    // A later wrong choice leaves the saved host and the window as they were.
    const savedBefore = fs.readFileSync(path.join(dataDir, HOSTS_FILE), 'utf8');
    expect((await chooser.choose(tls({ token: 'wrong' }))).ok).toBe(false);
    expect(fs.readFileSync(path.join(dataDir, HOSTS_FILE), 'utf8')).toBe(savedBefore);
    expect(chooser.current().name).toBe('build-box');
    await chooser.connection.use(null);
    fs.rmSync(other.dir, { recursive: true, force: true });
  });
});

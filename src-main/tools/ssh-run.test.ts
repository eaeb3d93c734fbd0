// P2.18 / §2 M: the SSH side of run_command on a target, against ssh2's own in-process Server, which sees exactly
// what the client sends: the command line (the watchdog around /bin/sh -c, in cwd), the signal and the end of stdin
// on cancel, one connection reused per target, only public-key methods tried (no password, no keyboard-interactive,
// even when the server offers nothing else), the host key checked before any authentication, and a connection that
// drops or a channel that closes without an exit status failing the call with that reason.
import net from 'node:net';
import { type AuthContext, type Connection, type ParsedKey, Server, type ServerChannel, utils } from 'ssh2';
import { afterEach, describe, expect, it } from 'vitest';
import { fingerprint } from '../ssh/known-hosts';
import type { SshTarget } from './policy-schema';
import { remoteCommandLine, type SshCredential, SshSessions } from './ssh-run';

const parse = (text: string) => utils.parseKey(text) as ParsedKey;
const hostPair = utils.generateKeyPairSync('ed25519');
const hostKey = parse(hostPair.public).getPublicSSH();
const clientPair = utils.generateKeyPairSync('ed25519');
const clientPublic = parse(clientPair.public);

interface Exec {
  command: string;
  stream: ServerChannel;
  signals: string[];
  eof: boolean;
  closed: boolean;
}

interface Fake {
  port: number;
  connections: Connection[];
  methods: string[];
  execs: Exec[];
  onExec: (e: Exec) => void;
  close(): Promise<void>;
}

/** An ssh2 Server on loopback; `methods` lists every auth method a client tried; `only` what it offers. */
async function startFake(options: { only?: string[] } = {}): Promise<Fake> {
  const fake: Fake = {
    port: 0,
    connections: [],
    methods: [],
    execs: [],
    onExec: () => {},
    close: async () => {},
  };
  const server = new Server({ hostKeys: [hostPair.private] }, (client) => {
    fake.connections.push(client);
    client.on('error', () => {});
    client.on('authentication', (ctx: AuthContext) => {
      fake.methods.push(ctx.method);
      const offered = options.only ?? ['publickey'];
      if (
        offered.includes('publickey') &&
        ctx.method === 'publickey' &&
        ctx.key.data.equals(clientPublic.getPublicSSH())
      ) {
        if (ctx.signature && clientPublic.verify(ctx.blob as Buffer, ctx.signature, ctx.hashAlgo) !== true)
          return ctx.reject();
        return ctx.accept();
      }
      ctx.reject(offered as never);
    });
    client.on('ready', () => {
      client.on('session', (accept) => {
        const session = accept();
        let current: Exec | undefined;
        session.on('signal', (_accept, _reject, info) => current?.signals.push(info.name));
        session.on('exec', (acceptExec, _reject, info) => {
          const stream = acceptExec();
          current = { command: info.command, stream, signals: [], eof: false, closed: false };
          const e = current;
          stream.on('end', () => {
            e.eof = true;
          });
          stream.resume(); // read stdin, so its end is seen
          stream.on('close', () => {
            e.closed = true;
          });
          fake.execs.push(e);
          fake.onExec(e);
        });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.port = (server.address() as net.AddressInfo).port;
  fake.close = () =>
    new Promise<void>((resolve) => {
      for (const c of fake.connections) c.end();
      server.close(() => resolve());
    });
  return fake;
}

const target = (port: number, over: Partial<SshTarget> = {}): SshTarget => ({
  name: 'box',
  host: '127.0.0.1',
  port,
  user: 'me',
  hostKey: { kind: 'key', type: 'ssh-ed25519', key: hostKey },
  hostKeyText: 'ssh-ed25519 …',
  allow: [],
  deny: [],
  ...over,
});

const KEY: SshCredential = { kind: 'key', privateKey: clientPair.private };
const run = (o: { command: string; cwd?: string; timeoutMs?: number; signal?: AbortSignal }) => ({
  command: o.command,
  ...(o.cwd ? { cwd: o.cwd } : {}),
  timeoutMs: o.timeoutMs ?? 10_000,
  signal: o.signal ?? new AbortController().signal,
  headChars: 10_000,
  tailChars: 20_000,
});

describe('P2.18 SSH sessions against an in-process ssh2 server', { timeout: 30_000 }, () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });
  const setup = async (options: { only?: string[] } = {}, credential: SshCredential = KEY) => {
    const fake = await startFake(options);
    const sessions = new SshSessions(() => credential, 5_000);
    cleanup.push(fake.close, () => sessions.close());
    return { fake, sessions };
  };

  it('runs the command under the watchdog, in cwd; output of both streams and the exit code; one connection per target, reused, closed at close()', async () => {
    const { fake, sessions } = await setup();
    fake.onExec = (e) => {
      e.stream.write('out\n');
      e.stream.stderr.write('err\n');
      e.stream.exit(7);
      e.stream.end();
    };
    const r = await sessions.run(target(fake.port), run({ command: "echo 'it''s'", cwd: '/srv/app' }));
    expect(r).toMatchObject({ exitCode: 7, exitSignal: null, timedOut: false, aborted: false, output: 'out\nerr\n' });
    expect(fake.execs[0]?.command).toBe(remoteCommandLine("echo 'it''s'", '/srv/app'));
    expect(fake.execs[0]?.command).toMatch(
      /^cd '\/srv\/app' && exec \/bin\/sh -c '.*' maestro-run 'echo '\\''it'\\'''\\''s'\\'''$/s,
    );
    await sessions.run(target(fake.port), run({ command: 'true' }));
    expect(fake.connections).toHaveLength(1);
    expect(sessions.openCount).toBe(1);
    const ended = new Promise<void>((resolve) => fake.connections[0]?.once('close', () => resolve()));
    await sessions.close();
    await ended;
    expect(sessions.openCount).toBe(0);
    // A closed set of connections opens none again.
    expect((await sessions.run(target(fake.port), run({ command: 'true' }))).connectError).toMatch(/closed/);
    expect(fake.connections).toHaveLength(1);
  });

  it('a process killed by a signal says which', async () => {
    const { fake, sessions } = await setup();
    fake.onExec = (e) => {
      e.stream.exit('KILL', false, '');
      e.stream.end();
    };
    const r = await sessions.run(target(fake.port), run({ command: 'x' }));
    expect(r).toMatchObject({ exitCode: null, exitSignal: 'SIGKILL' });
  });

  it('cancel: TERM through the channel and the end of stdin (the watchdog KILLs a second later), then close; the call settles within two seconds', async () => {
    const { fake, sessions } = await setup();
    const abort = new AbortController();
    fake.onExec = (e) => {
      e.stream.write('working\n');
      setTimeout(() => abort.abort(new Error('cancelled')), 100);
    };
    const started = Date.now();
    const r = await sessions.run(target(fake.port), run({ command: 'sleep 100', signal: abort.signal }));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(r).toMatchObject({ aborted: true, timedOut: false, output: 'working\n' });
    const e = fake.execs[0] as Exec;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(e.signals[0]).toBe('TERM');
    expect(e.signals).toEqual(['TERM']);
    expect(e.eof).toBe(true);
    expect(e.closed).toBe(true);
  });

  it('a timeout stops it the same way', async () => {
    const { fake, sessions } = await setup();
    const r = await sessions.run(target(fake.port), run({ command: 'sleep 100', timeoutMs: 300 }));
    expect(r).toMatchObject({ timedOut: true, aborted: false });
    expect(fake.execs[0]?.signals[0]).toBe('TERM');
  });

  it('a server that offers only password and keyboard-interactive gets no answer: only public-key methods are tried', async () => {
    const { fake, sessions } = await setup({ only: ['password', 'keyboard-interactive'] });
    const r = await sessions.run(target(fake.port), run({ command: 'true' }));
    expect(r.connectError).toMatch(/^SSH target "box" \(me@127\.0\.0\.1:\d+\) refused the key chosen in Settings/);
    expect(fake.methods.every((m) => m === 'none' || m === 'publickey')).toBe(true);
    expect(fake.execs).toHaveLength(0);
  });

  it('a host key other than the policy names, as a fingerprint or as a key, is refused before any authentication', async () => {
    const { fake, sessions } = await setup();
    const other = parse(utils.generateKeyPairSync('ed25519').public).getPublicSSH();
    for (const hk of [
      { kind: 'fingerprint' as const, sha256: fingerprint(other) },
      { kind: 'key' as const, type: 'ssh-ed25519', key: other },
    ]) {
      const r = await sessions.run(target(fake.port, { hostKey: hk }), run({ command: 'true' }));
      expect(r.connectError).toContain(`presented ssh-ed25519 ${fingerprint(hostKey)}, which is NOT the host key`);
      expect(r.connectError).toContain(fingerprint(other));
    }
    expect(fake.methods).toEqual([]);
    // The right fingerprint goes through.
    fake.onExec = (e) => {
      e.stream.exit(0);
      e.stream.end();
    };
    const ok = await sessions.run(
      target(fake.port, { name: 'fp', hostKey: { kind: 'fingerprint', sha256: fingerprint(hostKey) } }),
      run({ command: 'true' }),
    );
    expect(ok.exitCode).toBe(0);
  });

  it('a dropped connection fails the running call with its reason, and a channel closed without an exit status too', async () => {
    const { fake, sessions } = await setup();
    fake.onExec = (e) => {
      e.stream.write('partial\n');
      setTimeout(() => (fake.connections[0] as unknown as { _sock: net.Socket })._sock.destroy(), 100);
    };
    const r = await sessions.run(target(fake.port), run({ command: 'sleep 100' }));
    expect(r.dropped).toMatch(/^the connection to SSH target "box" \(me@127\.0\.0\.1:\d+\) dropped: /);
    expect(r.output).toBe('partial\n');
    expect(sessions.openCount).toBe(0);

    fake.onExec = (e) => e.stream.close();
    const closed = await sessions.run(target(fake.port), run({ command: 'x' }));
    expect(closed.dropped).toMatch(/dropped: the command ended without an exit status$/);
  });

  it('an unreachable port and a missing agent are said, nothing retried', async () => {
    const free = net.createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const port = (free.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => free.close(() => resolve()));
    const sessions = new SshSessions(() => KEY, 2_000);
    cleanup.push(() => sessions.close());
    expect((await sessions.run(target(port), run({ command: 'x' }))).connectError).toMatch(
      /^cannot connect to SSH target "box" \(me@127\.0\.0\.1:\d+\): .*ECONNREFUSED/,
    );
    const noAgent = new SshSessions(() => ({ error: 'no SSH agent' }), 2_000);
    expect((await noAgent.run(target(port), run({ command: 'x' }))).connectError).toBe('no SSH agent');
  });
});

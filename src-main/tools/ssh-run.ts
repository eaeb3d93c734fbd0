// run_command on an SSH target the Workspace Tool Policy names (§2 M, P2.18): ssh2 connects with the person's SSH
// agent or the key they chose in Settings — public-key auth only, so a password prompt is never answered — and accepts
// only the host key the policy names (no trust on first use). One connection per target per run, opened at the first
// call and reused; a run that ends or parks closes them (SshSessions.close). A failure is said in the call's result
// and never retried behind the model's back: the next call connects again and says its own outcome.
import { type ConnectConfig, Client as SshClient, utils } from 'ssh2';
import { fingerprint, hostKeyAlgorithms, keyType } from '../ssh/known-hosts';
import type { SshTarget } from './policy-schema';
import { KILL_GRACE_MS, OutputBuffer } from './process-run';
import { shellQuote } from './shell-quote';

/** How a target is reached: the person's agent, or the private key they chose in Settings (its text, opened). */
export type SshCredential = { kind: 'agent'; socket: string } | { kind: 'key'; privateKey: string };

/** The credential for a target, or why there is none (the message names what to do). */
export type SshCredentials = (target: SshTarget) => SshCredential | { error: string };

/** The person's agent, when SSH_AUTH_SOCK names one. */
export const agentCredential =
  (env: NodeJS.ProcessEnv = process.env): SshCredentials =>
  (target) =>
    env.SSH_AUTH_SOCK
      ? { kind: 'agent', socket: env.SSH_AUTH_SOCK }
      : {
          error: `no SSH agent (SSH_AUTH_SOCK is not set) and no key chosen in Settings for SSH target "${target.name}"`,
        };

const CONNECT_TIMEOUT_MS = 15_000;
const SETTLE_AFTER_STOP_MS = 1800;
const CLOSE_GRACE_MS = 2000;
/** A connection that stops answering (a cable pulled, no RST) is found dead after about 45 s, with that reason. */
const KEEPALIVE_MS = 15_000;
const KEEPALIVE_MISSES = 3;

export const where = (t: SshTarget) => `SSH target "${t.name}" (${t.user}@${t.host}:${t.port})`;

export class SshTargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

export interface RemoteRunOptions {
  command: string;
  /** A folder on the target (relative to the login folder); default the login folder. */
  cwd?: string;
  timeoutMs: number;
  signal: AbortSignal;
  headChars: number;
  tailChars: number;
  logDir?: string;
}

export interface RemoteRunResult {
  exitCode: number | null;
  exitSignal: string | null;
  output: string;
  timedOut: boolean;
  aborted: boolean;
  /** The connection ended before the command did: why. */
  dropped?: string;
  /** The connection could not be made: why (nothing ran). */
  connectError?: string;
}

interface Connection {
  client: SshClient;
  /** Why the connection ended, once it has (its last error, or that it closed). */
  ended: string | null;
  closed: Promise<void>;
}

/** A run's connections to its SSH targets. */
export class SshSessions {
  private readonly connections = new Map<string, Promise<Connection>>();
  private closing = false;

  constructor(
    private readonly credentials: SshCredentials,
    private readonly connectTimeoutMs = CONNECT_TIMEOUT_MS,
  ) {}

  /** How many targets have a connection up (tests: one per target, reused). */
  get openCount(): number {
    return this.connections.size;
  }

  private connection(target: SshTarget): Promise<Connection> {
    const known = this.connections.get(target.name);
    if (known) return known;
    const made = connect(target, this.credentials(target), this.connectTimeoutMs);
    this.connections.set(target.name, made);
    const forget = () => {
      if (this.connections.get(target.name) === made) this.connections.delete(target.name);
    };
    made.then((c) => c.closed.then(forget), forget);
    return made;
  }

  async run(target: SshTarget, o: RemoteRunOptions): Promise<RemoteRunResult> {
    const none = { exitCode: null, exitSignal: null, output: '', timedOut: false, aborted: false };
    if (this.closing) return { ...none, connectError: `the job's SSH connections are closed` };
    if (o.signal.aborted) return { ...none, aborted: true };
    let connection: Connection;
    try {
      connection = await abortable(this.connection(target), o.signal);
    } catch (error) {
      if (o.signal.aborted) return { ...none, aborted: true };
      return { ...none, connectError: (error as Error).message };
    }
    if (connection.ended !== null) {
      return { ...none, dropped: `the connection to ${where(target)} had ended: ${connection.ended}` };
    }
    return execute(target, connection, o);
  }

  /** Ends every connection (the run ended or parked); settles once they are closed. */
  async close(): Promise<void> {
    this.closing = true;
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(
      all.map((p) =>
        p.then(
          (c) => {
            c.client.end();
            // A server that never closes its side must not hold the run's end: the socket is destroyed after a while.
            const timer = setTimeout(() => c.client.destroy(), CLOSE_GRACE_MS);
            return c.closed.finally(() => clearTimeout(timer));
          },
          () => undefined,
        ),
      ),
    );
  }
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

function credentialConfig(target: SshTarget, credential: SshCredential): Pick<ConnectConfig, 'agent' | 'privateKey'> {
  if (credential.kind === 'agent') return { agent: credential.socket };
  const parsed = utils.parseKey(credential.privateKey);
  if (parsed instanceof Error) {
    // No passphrase is asked for: a protected key belongs in the agent.
    if (/passphrase|encrypted/i.test(parsed.message)) {
      throw new SshTargetError(
        `the key chosen for ${where(target)} is protected by a passphrase: add it to your SSH agent (ssh-add) and remove it from Settings`,
      );
    }
    throw new SshTargetError(
      `the key chosen for ${where(target)} is not a private key ssh can use (${parsed.message})`,
    );
  }
  return { privateKey: credential.privateKey };
}

/** Why the presented key is not the one the policy names, or undefined when it is. */
function hostKeyRefusal(target: SshTarget, key: Buffer): string | undefined {
  const expected = target.hostKey;
  const presented = fingerprint(key);
  const matches = expected.kind === 'fingerprint' ? presented === expected.sha256 : expected.key.equals(key);
  if (matches) return undefined;
  const named = expected.kind === 'fingerprint' ? expected.sha256 : `${expected.type} ${fingerprint(expected.key)}`;
  return (
    `${where(target)} presented ${keyType(key)} ${presented}, which is NOT the host key the workspace policy names ` +
    `(${named}): someone may be in the middle, or the host was reinstalled; nothing was sent`
  );
}

/** Connects, checks the host key and authenticates; nothing is left open when it throws. */
function connect(
  target: SshTarget,
  credential: SshCredential | { error: string },
  readyTimeoutMs: number,
): Promise<Connection> {
  return new Promise((resolve, reject) => {
    if ('error' in credential) return reject(new SshTargetError(credential.error));
    let auth: Pick<ConnectConfig, 'agent' | 'privateKey'>;
    try {
      auth = credentialConfig(target, credential);
    } catch (error) {
      return reject(error);
    }
    const client = new SshClient();
    let refusal: string | undefined;
    const config: ConnectConfig = {
      host: target.host,
      port: target.port,
      username: target.user,
      readyTimeout: readyTimeoutMs,
      keepaliveInterval: KEEPALIVE_MS,
      keepaliveCountMax: KEEPALIVE_MISSES,
      ...auth,
      // Only public-key methods are configured (no password, no keyboard-interactive): no prompt is ever answered.
      tryKeyboard: false,
      // Asks for the type the policy names, so a host with several keys shows that one.
      ...(target.hostKey.kind === 'key'
        ? { algorithms: { serverHostKey: hostKeyAlgorithms({ types: [target.hostKey.type] }) } }
        : {}),
      hostVerifier: (key: Buffer) => {
        refusal = hostKeyRefusal(target, key);
        return refusal === undefined;
      },
    };
    let settled = false;
    const fail = (error: Error & { level?: string }) => {
      // Kept as the listener until ready: a second error of a failed handshake is not an unhandled one.
      if (settled) return;
      settled = true;
      client.end();
      if (refusal) return reject(new SshTargetError(refusal));
      if (error.level === 'client-authentication') {
        const offered = credential.kind === 'key' ? 'the key chosen in Settings' : 'every key the SSH agent offered';
        return reject(new SshTargetError(`${where(target)} refused ${offered} (only public-key login is tried)`));
      }
      reject(new SshTargetError(`cannot connect to ${where(target)}: ${error.message}`));
    };
    client.on('error', fail);
    client.once('ready', () => {
      if (settled) return;
      settled = true;
      client.off('error', fail);
      const connection: Connection = {
        client,
        ended: null,
        closed: new Promise<void>((done) =>
          client.once('close', () => {
            connection.ended ??= 'the connection closed';
            done();
          }),
        ),
      };
      client.on('error', (error: Error) => {
        connection.ended ??= error.message;
      });
      resolve(connection);
    });
    client.connect(config);
  });
}

/**
 * The program the target's shell runs, so a stop does not depend on the server honouring signal requests (OpenSSH
 * refuses them for root logins, older servers for every login): a watcher in the session's process group reads the
 * channel's stdin and, at its end (the client stops the command, the channel closes, or the command ended), TERMs the
 * group, then KILLs it a second later. The command itself runs as /bin/sh -c, as local commands do, stdin empty.
 */
const REMOTE_WATCHDOG =
  // fd 3: a background list's own stdin is /dev/null in a shell without job control. One line: csh-family login
  // shells refuse a line break inside quotes.
  'exec 3<&0; { read -r _ <&3; kill -TERM 0; sleep 1; kill -KILL 0; } </dev/null >/dev/null 2>&1 & exec 3<&- /bin/sh -c "$1" </dev/null';

/** The line the target's login shell runs: the watchdog around the command, in `cwd` when given. */
export function remoteCommandLine(command: string, cwd?: string): string {
  const run = `exec /bin/sh -c ${shellQuote(REMOTE_WATCHDOG)} maestro-run ${shellQuote(command)}`;
  return cwd === undefined || cwd === '.' ? run : `cd ${shellQuote(cwd)} && ${run}`;
}

/**
 * Runs one command on an open connection: output interleaved and capped as for local commands; on timeout or cancel
 * the remote process group gets TERM (a channel signal, and the watchdog at the end of stdin), then KILL from the
 * watchdog, and the channel is closed; the call settles within two seconds of that either way.
 */
function execute(target: SshTarget, connection: Connection, o: RemoteRunOptions): Promise<RemoteRunResult> {
  return new Promise((resolve) => {
    const out = new OutputBuffer(o.headChars, o.tailChars, o.logDir);
    let timedOut = false;
    let aborted = false;
    let exit: { code: number | null; signal: string | null } | null = null;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];
    let channel: import('ssh2').ClientChannel | undefined;

    const settle = (extra: Partial<RemoteRunResult> = {}) => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      o.signal.removeEventListener('abort', onAbort);
      connection.client.off('close', onDrop);
      out.close();
      resolve({
        exitCode: exit?.code ?? null,
        exitSignal: exit?.signal ?? null,
        output: out.text(),
        timedOut,
        aborted,
        ...extra,
      });
    };
    const stop = () => {
      // The signal where the server takes it; the end of stdin for the watchdog either way; then the channel closes.
      try {
        channel?.signal('TERM');
        channel?.end();
      } catch {
        // the channel is gone already
      }
      // The watchdog KILLs the group a second after TERM (a signal cannot follow the end of stdin on the channel).
      timers.push(setTimeout(() => channel?.close(), KILL_GRACE_MS));
      timers.push(setTimeout(() => settle(), SETTLE_AFTER_STOP_MS));
    };
    const onAbort = () => {
      if (settled || aborted || timedOut) return;
      aborted = true;
      stop();
    };
    const onDrop = () => {
      if (exit === null && !timedOut && !aborted) {
        settle({ dropped: `the connection to ${where(target)} dropped: ${connection.ended ?? 'it closed'}` });
      }
    };
    o.signal.addEventListener('abort', onAbort, { once: true });
    connection.client.once('close', onDrop);
    timers.push(
      setTimeout(() => {
        if (settled || aborted) return;
        timedOut = true;
        stop();
      }, o.timeoutMs),
    );
    try {
      connection.client.exec(remoteCommandLine(o.command, o.cwd), (error, ch) => {
        if (error) return settle({ dropped: `${where(target)} would not run the command: ${error.message}` });
        channel = ch;
        if (settled) {
          ch.close();
          return;
        }
        if (aborted || timedOut) stop();
        ch.setEncoding('utf8');
        ch.stderr.setEncoding('utf8');
        ch.on('data', (c: string) => out.push(c));
        ch.stderr.on('data', (c: string) => out.push(c));
        ch.on('exit', (code: number | null, signal?: string) => {
          exit = { code: typeof code === 'number' ? code : null, signal: signal ?? null };
        });
        ch.on('close', () => {
          // A channel that closes without an exit status while the connection is up ended abnormally: say it.
          setImmediate(() => {
            if (exit === null && !timedOut && !aborted) {
              settle({
                dropped: `the connection to ${where(target)} dropped: ${connection.ended ?? 'the command ended without an exit status'}`,
              });
            } else settle();
          });
        });
      });
    } catch (error) {
      settle({ dropped: `the connection to ${where(target)} dropped: ${(error as Error).message}` });
    }
  });
}

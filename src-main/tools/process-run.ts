// Runs a program in its own process group and collects its combined output (head and tail kept, the middle cut).
// On timeout or abort the whole group gets SIGTERM, then SIGKILL one second later; the call settles within two
// seconds either way, even when a grandchild holds the output pipes open. After a normal exit, a background process
// that still holds the output pipes a second later is killed too; one that detached from them is left running.
// With `logDir`, output that gets cut is kept whole in a new file there (written as it arrives, from the moment it
// no longer fits), and the note in the middle says where. The group dies with the host (SIGKILL included): a
// command must not go on, or finish its work, after the host that would record its result is gone.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';

export const KILL_GRACE_MS = 1000;
const SETTLE_AFTER_KILL_MS = 1800;
const CLOSE_AFTER_EXIT_MS = 1000;
/** The most a kept output file grows to (a runaway command must not fill the disk); past it the file says so. */
export const LOG_MAX_BYTES = 256 * 1024 * 1024;

export interface RunProcessOptions {
  file: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Characters kept from the start and from the end of the output. */
  headChars?: number;
  tailChars?: number;
  /** Folder for the whole output when it is cut (`<timestamp>-<n>.log`; created when needed). */
  logDir?: string;
  /** Kill the process group when this process dies (default true; not on Windows, which has no /bin/sh). */
  dieWithHost?: boolean;
}

/**
 * The program runs under this /bin/sh wrapper, so that it dies with the host without native code (PR_SET_PDEATHSIG
 * would stop only the first process, and only on Linux): a watcher in the program's process group reads fd 3, a
 * socket whose other end only the host holds. When the host dies the kernel closes that end, the read sees EOF and
 * the watcher kills the whole group. When the program ends first, the host sends a line and the watcher goes
 * quietly. The wrapper then closes fd 3 and execs the program: same pid, same exit code or signal, stdin as given.
 */
const WATCHDOG = '{ read -r _ <&3 || kill -KILL 0; } </dev/null >/dev/null 2>&1 &\nexec 3<&- && exec "$@"';

/** Where `file` is found as execvp would find it, or null: the wrapper must not turn "not found" into exit 127. */
function findProgram(file: string, cwd: string, env: NodeJS.ProcessEnv): string | null {
  const runnable = (candidate: string) => {
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return fs.statSync(candidate).isFile();
    } catch {
      return false;
    }
  };
  if (file.includes('/')) return runnable(path.resolve(cwd, file)) ? file : null;
  for (const dir of (env.PATH ?? '/usr/bin:/bin').split(':')) {
    const candidate = path.resolve(cwd, dir || '.', file);
    if (runnable(candidate)) return candidate;
  }
  return null;
}

function notFound(file: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`spawn ${file} ENOENT`), {
    code: 'ENOENT',
    errno: -2,
    syscall: `spawn ${file}`,
    path: file,
  });
}

/** Starts the program in its own process group; under the watchdog when it is to die with the host. */
function start(o: RunProcessOptions): { child: ChildProcess } | { notFound: NodeJS.ErrnoException } {
  const base = { cwd: o.cwd, env: o.env, detached: true }; // its own process group, so the whole tree can be stopped
  if (o.dieWithHost === false || process.platform === 'win32') {
    return { child: spawn(o.file, o.args, { ...base, stdio: ['ignore', 'pipe', 'pipe'] }) };
  }
  if (findProgram(o.file, o.cwd, o.env) === null) return { notFound: notFound(o.file) };
  const args = ['-c', WATCHDOG, 'maestro-watchdog', o.file, ...o.args];
  return { child: spawn('/bin/sh', args, { ...base, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] }) };
}

export interface RunProcessResult {
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
  /** stdout and stderr interleaved as they arrived; the middle replaced by a note when too long. */
  output: string;
  timedOut: boolean;
  aborted: boolean;
  /** The program could not be started (e.g. not found). */
  spawnError?: NodeJS.ErrnoException;
  /** The file holding the whole output, when it was cut and logDir was given. */
  logPath?: string;
}

let logCounter = 0;

/** A new file `<timestamp>-<n>.log` in `dir` (opened exclusively, so two runs never share one). */
function openLog(dir: string): { fd: number; path: string } | null {
  try {
    fs.mkdirSync(dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    for (let attempt = 0; attempt < 100; attempt++) {
      const file = path.join(dir, `${stamp}-${++logCounter}.log`);
      try {
        return { fd: fs.openSync(file, 'wx', 0o600), path: file };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
    }
  } catch {
    // no log: the note says only what was cut
  }
  return null;
}

export class OutputBuffer {
  private head = '';
  private tail = '';
  private dropped = 0;
  private log: { fd: number; path: string; bytes: number; broken: boolean } | null = null;
  private logTried = false;
  constructor(
    private readonly headChars: number,
    private readonly tailChars: number,
    private readonly logDir?: string,
  ) {}
  get logPath(): string | undefined {
    return this.log && !this.log.broken ? this.log.path : undefined;
  }
  private write(text: string) {
    const log = this.log;
    if (!log || log.broken || log.bytes >= LOG_MAX_BYTES) return;
    try {
      let bytes = Buffer.from(text, 'utf8');
      let end = '';
      if (log.bytes + bytes.length > LOG_MAX_BYTES) {
        bytes = bytes.subarray(0, LOG_MAX_BYTES - log.bytes);
        end = `\n… (the output went on; this file stops at ${LOG_MAX_BYTES} bytes)\n`;
      }
      fs.writeSync(log.fd, bytes);
      log.bytes += bytes.length;
      if (end !== '') fs.writeSync(log.fd, end);
    } catch {
      log.broken = true; // e.g. the disk is full: the note no longer points at it
    }
  }
  push(chunk: string) {
    if (this.log) this.write(chunk);
    else if (
      this.logDir !== undefined &&
      !this.logTried &&
      this.head.length + this.tail.length + chunk.length > this.headChars + this.tailChars
    ) {
      // From now on something gets cut: keep the whole output in a file, starting with what came so far.
      this.logTried = true;
      const opened = openLog(this.logDir);
      if (opened) {
        this.log = { ...opened, bytes: 0, broken: false };
        this.write(this.head + this.tail);
        this.write(chunk);
      }
    }
    const room = this.headChars - this.head.length;
    if (room > 0) {
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
    }
    if (chunk === '') return;
    this.tail += chunk;
    if (this.tail.length > this.tailChars) {
      this.dropped += this.tail.length - this.tailChars;
      this.tail = this.tail.slice(-this.tailChars);
    }
  }
  close() {
    if (!this.log) return;
    try {
      fs.closeSync(this.log.fd);
    } catch {
      // already closed
    }
  }
  text(): string {
    if (this.dropped === 0) return this.head + this.tail;
    const where = this.logPath ? `; the whole output is in ${this.logPath}` : '';
    return `${this.head}\n… (${this.dropped} characters of output cut${where}) …\n${this.tail}`;
  }
}

export function runProcess(o: RunProcessOptions): Promise<RunProcessResult> {
  return new Promise((resolve) => {
    const out = new OutputBuffer(o.headChars ?? 10_000, o.tailChars ?? 20_000, o.logDir);
    let timedOut = false;
    let aborted = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];

    if (o.signal?.aborted) {
      resolve({ exitCode: null, exitSignal: null, output: '', timedOut: false, aborted: true });
      return;
    }
    const started = start(o);
    if ('notFound' in started) {
      const spawnError = started.notFound;
      resolve({ exitCode: null, exitSignal: null, output: '', timedOut: false, aborted: false, spawnError });
      return;
    }
    const child = started.child as ChildProcess & { stdout: Readable; stderr: Readable };
    // The host's end of the watchdog's socket: a line tells the watcher the program ended; closing it (or dying)
    // without one kills the group.
    const watchdog = child.stdio[3] as Writable | null | undefined;
    watchdog?.on('error', () => {}); // the watcher is gone already (killed with the group)
    const releaseWatchdog = () => {
      if (watchdog && !watchdog.destroyed) watchdog.end('done\n');
    };
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (c: string) => out.push(c));
    child.stderr.on('data', (c: string) => out.push(c));

    const killGroup = (sig: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, sig);
      } catch {
        // the group is gone already
      }
    };
    const settle = (spawnError?: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      // Stopped on timeout or abort: nothing of the group may outlive the call, not even a process that ignored
      // SIGTERM after closing its output.
      if (timedOut || aborted) killGroup('SIGKILL');
      o.signal?.removeEventListener('abort', onAbort);
      child.stdout.destroy();
      child.stderr.destroy();
      releaseWatchdog();
      out.close();
      resolve({
        exitCode: exit?.code ?? null,
        exitSignal: exit?.signal ?? null,
        output: out.text(),
        timedOut,
        aborted,
        spawnError,
        logPath: out.logPath,
      });
    };
    const stop = () => {
      killGroup('SIGTERM');
      timers.push(setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS));
      timers.push(setTimeout(() => settle(), SETTLE_AFTER_KILL_MS));
    };
    const onAbort = () => {
      if (settled || aborted || timedOut) return;
      aborted = true;
      stop();
    };

    timers.push(
      setTimeout(() => {
        if (settled || aborted) return;
        timedOut = true;
        stop();
      }, o.timeoutMs),
    );
    o.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (e) => settle(e as NodeJS.ErrnoException));
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      releaseWatchdog();
      // Something it started in the background still holds the pipes: stop the rest of the group.
      timers.push(
        setTimeout(() => {
          killGroup('SIGKILL');
          settle();
        }, CLOSE_AFTER_EXIT_MS),
      );
    });
    child.on('close', (code, signal) => {
      exit ??= { code, signal };
      settle();
    });
  });
}

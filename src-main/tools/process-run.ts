// Runs a program in its own process group and collects its combined output (head and tail kept, the middle cut).
// On timeout or abort the whole group gets SIGTERM, then SIGKILL one second later; the call settles within two
// seconds either way, even when a grandchild holds the output pipes open. After a normal exit, a background process
// that still holds the output pipes a second later is killed too; one that detached from them is left running.
import { spawn } from 'node:child_process';

export const KILL_GRACE_MS = 1000;
const SETTLE_AFTER_KILL_MS = 1800;
const CLOSE_AFTER_EXIT_MS = 1000;

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
}

class OutputBuffer {
  private head = '';
  private tail = '';
  private dropped = 0;
  constructor(
    private readonly headChars: number,
    private readonly tailChars: number,
  ) {}
  push(chunk: string) {
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
  text(): string {
    if (this.dropped === 0) return this.head + this.tail;
    return `${this.head}\n… (${this.dropped} characters of output cut) …\n${this.tail}`;
  }
}

export function runProcess(o: RunProcessOptions): Promise<RunProcessResult> {
  return new Promise((resolve) => {
    const out = new OutputBuffer(o.headChars ?? 10_000, o.tailChars ?? 20_000);
    let timedOut = false;
    let aborted = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];

    if (o.signal?.aborted) {
      resolve({ exitCode: null, exitSignal: null, output: '', timedOut: false, aborted: true });
      return;
    }
    const child = spawn(o.file, o.args, {
      cwd: o.cwd,
      env: o.env,
      detached: true, // its own process group, so the whole tree can be stopped
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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
      resolve({
        exitCode: exit?.code ?? null,
        exitSignal: exit?.signal ?? null,
        output: out.text(),
        timedOut,
        aborted,
        spawnError,
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

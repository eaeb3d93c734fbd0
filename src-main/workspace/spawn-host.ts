// Child processes started by a small process of our own: starting one (fork + exec) costs the starting process time
// in proportion to its memory — 15–50 ms from the host, a few ms from a bare Node — and it holds the starting thread
// meanwhile. The host starts git before every step that may change files (checkpoints): from the main thread that
// stalled the model's stream, the bridge and the UI. The spawn host runs execFile exactly as asked and sends the
// answer back; if it cannot be started, execFile runs here as before. Under Electron (whose packaged binary cannot
// run as Node: the RunAsNode fuse is off) execFile always runs here.
import { type ChildProcess, type ExecFileOptions, execFile, spawn } from 'node:child_process';

// Plain CommonJS for `node -e`: nothing to bundle or resolve in any build.
const HOST = `
const { execFile } = require('node:child_process');
process.on('message', (m) => {
  let child;
  const answer = (error, stdout, stderr) =>
    process.send({
      id: m.id,
      error: error ? { code: error.code ?? null, killed: error.killed === true, message: error.message } : null,
      stdout,
      stderr: String(stderr),
    });
  try {
    child = execFile(m.file, m.args, m.options, answer);
  } catch (error) {
    answer(error, '', '');
    return;
  }
  child.stdin?.on('error', () => {});
  child.stdin?.end(m.input ?? '');
});
process.on('disconnect', () => process.exit(0));
`;

export interface SpawnedResult {
  /** A number: the exit code (null with a signal); a string: why it could not start (ENOENT, …). */
  error: { code: number | string | null; killed: boolean; message: string } | null;
  stdout: string | Buffer;
  stderr: string;
}

type Pending = { resolve: (r: SpawnedResult) => void; reject: (e: Error) => void };

let host: ChildProcess | null = null;
let hostFailed = process.versions.electron !== undefined;
const pending = new Map<number, Pending>();
let nextId = 0;

function idle(child: ChildProcess): void {
  child.unref();
  child.channel?.unref();
}

function startHost(): ChildProcess | null {
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, ['-e', HOST], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'advanced',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
  } catch {
    hostFailed = true;
    return null;
  }
  idle(child);
  child.on('message', (m: SpawnedResult & { id: number }) => {
    const waiting = pending.get(m.id);
    pending.delete(m.id);
    if (pending.size === 0) idle(child);
    const stdout = typeof m.stdout === 'string' ? m.stdout : Buffer.from(m.stdout);
    waiting?.resolve({ error: m.error, stdout, stderr: m.stderr });
  });
  const gone = (why: string) => {
    if (host === child) host = null;
    for (const [id, waiting] of pending) {
      pending.delete(id);
      waiting.reject(new Error(`the process that starts git stopped (${why})`));
    }
  };
  child.on('error', (error) => {
    hostFailed = true;
    gone(error.message);
  });
  child.on('exit', (code, signal) => gone(signal ?? String(code)));
  return child;
}

/** execFile here, for when no spawn host can be started. */
function execFileHere(
  file: string,
  args: readonly string[],
  options: ExecFileOptions & { encoding: 'utf8' | 'buffer' },
  input: string | Buffer,
): Promise<SpawnedResult> {
  return new Promise((resolve) => {
    const child = execFile(file, args, options, (error, stdout, stderr) =>
      resolve({
        error: error
          ? {
              code: (error.code as number | string | undefined) ?? null,
              killed: error.killed === true,
              message: error.message,
            }
          : null,
        stdout,
        stderr: String(stderr),
      }),
    );
    child.stdin?.on('error', () => {});
    child.stdin?.end(input);
  });
}

/** execFile(file, args, options) started by the spawn host; `input` is written to stdin, which is then closed. */
export function execFileOffMain(
  file: string,
  args: readonly string[],
  options: ExecFileOptions & { encoding: 'utf8' | 'buffer' },
  input: string | Buffer = '',
): Promise<SpawnedResult> {
  if (!hostFailed) host ??= startHost();
  const child = host;
  if (!child?.connected) return execFileHere(file, args, options, input);
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    // Held while a git runs, so the host waits for it; let go when idle.
    child.ref();
    child.channel?.ref();
    child.send({ id, file, args: [...args], options, input }, (error) => {
      if (!error) return;
      pending.delete(id);
      execFileHere(file, args, options, input).then(resolve, reject);
    });
  });
}

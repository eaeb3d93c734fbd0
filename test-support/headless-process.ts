// Test support: the headless host as a real process from its source entry (`node --import tsx src-main/headless.ts`),
// started on a given data dir and workspace, with its bridge called over HTTP; SIGKILL it, start another on the same
// data dir. Every host still running when the test process exits is killed.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const ENTRY = path.join(ROOT, 'src-main', 'headless.ts');
const LISTENING = /^MAESTRO bridge listening on (https?:\/\/\S+:\d+)$/m;
const READY_TIMEOUT_MS = 30_000;

export interface HostProcess {
  child: ChildProcess;
  url: string;
  token: string;
  /** When it printed its "listening" line (epoch ms). */
  listeningAt: number;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Calls the bridge under /api/local with the bearer token. */
  // biome-ignore lint/suspicious/noExplicitAny: responses are inspected freely
  call(method: 'GET' | 'POST', apiPath: string, body?: unknown): Promise<{ status: number; json: any }>;
}

const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts a host and waits for its "listening" line; fails with its output if it exits or takes too long. */
export async function startHostProcess(
  dataDir: string,
  workspace: string,
  env: Record<string, string> = {},
  /** More flags, e.g. --bind and --tls-cert/--tls-key (then `call`, which uses fetch, cannot verify the host). */
  extraArgs: string[] = [],
): Promise<HostProcess> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(childEnv)) if (key.startsWith('MAESTRO_')) delete childEnv[key];
  // A Reflection after a failed job would take scripted replies meant for the test's own jobs.
  childEnv.MAESTRO_REFLECTION = 'off';
  Object.assign(childEnv, env);
  const args = ['--import', 'tsx', ENTRY, '--data-dir', dataDir, '--port', '0', '--workspace', workspace, ...extraArgs];
  const child = spawn(process.execPath, args, { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let log = '';
  child.stdout?.setEncoding('utf8').on('data', (c: string) => {
    log += c;
  });
  child.stderr?.setEncoding('utf8').on('data', (c: string) => {
    log += c;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let match = LISTENING.exec(log);
  while (!match) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the host did not start:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 10));
    match = LISTENING.exec(log);
  }
  const listeningAt = Date.now();
  const url = match[1] as string;
  const { token } = JSON.parse(fs.readFileSync(path.join(dataDir, 'bridge.json'), 'utf8')) as { token: string };
  return {
    child,
    url,
    token,
    listeningAt,
    output: () => log,
    exited,
    async call(method, apiPath, body) {
      const res = await fetch(`${url}/api/local${apiPath}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, json: await res.json() };
    },
  };
}

/** Stops every host of `hosts` still running (SIGTERM, then waits for it to exit) and empties the list. */
export async function stopHosts(hosts: HostProcess[]): Promise<void> {
  for (const host of hosts.splice(0)) {
    if (host.child.exitCode === null && host.child.signalCode === null) {
      host.child.kill('SIGTERM');
      await host.exited;
    }
  }
}

/** Polls `check` every 100 ms until it answers something other than undefined; fails naming `what` after `timeoutMs`. */
export async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

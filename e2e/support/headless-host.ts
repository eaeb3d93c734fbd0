// Starts the BUILT headless host (out/main/headless.js) in its own temp data dir and workspace, reads bridge.json,
// and stops it again: SIGTERM, wait for the exit, remove the temp dirs. Shared by the browser specs.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const APP_ROOT = path.resolve(__dirname, '..', '..');
export const HEADLESS_ENTRY = path.join(APP_ROOT, 'out', 'main', 'headless.js');

export interface BridgeInfo {
  url: string;
  token: string;
  pid: number;
}

export interface HeadlessHost extends BridgeInfo {
  dataDir: string;
  workspace: string;
  /** The page address with the token in its fragment. */
  pageUrl: string;
  /** Calls the bridge over HTTP with the bearer token; `path` is under /api/local (not over TLS: fetch trusts only public CAs). */
  call<T = unknown>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** What the host printed, for failure messages. */
  output(): string;
  /** Stops the host (SIGTERM) and starts it again on the same data dir without --port: its kept address. */
  restart(): Promise<BridgeInfo>;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 10_000;

/**
 * `env` is added to the host's environment, `args` to its command line (e.g. --bind with --tls-cert and --tls-key). The MAESTRO_LLM_* variables of the Playwright process are not passed on,
 * so a host runs jobs only when the test gives it an LLM profile (without one, every job stays `queued`).
 */
export async function startHeadlessHost(env: NodeJS.ProcessEnv = {}, args: string[] = []): Promise<HeadlessHost> {
  if (!fs.existsSync(HEADLESS_ENTRY)) {
    throw new Error(`${HEADLESS_ENTRY} is missing: run \`npx electron-vite build\` first`);
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-e2e-'));
  const dataDir = path.join(root, 'data');
  const workspace = path.join(root, 'workspace');
  fs.mkdirSync(dataDir);
  fs.mkdirSync(workspace);

  let log = '';
  const launch = (portArgs: string[]) => {
    const started = spawn(
      process.execPath,
      [HEADLESS_ENTRY, '--data-dir', dataDir, ...portArgs, '--workspace', workspace, ...args],
      {
        cwd: APP_ROOT,
        env: { ...withoutLlmProfile(process.env), MAESTRO_REFLECTION: 'off', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const append = (chunk: Buffer) => {
      log += chunk.toString();
    };
    started.stdout?.on('data', append);
    started.stderr?.on('data', append);
    return started;
  };
  let child = launch(['--port', '0']);

  const stop = async () => {
    await terminate(child);
    fs.rmSync(root, { recursive: true, force: true });
  };

  let bridge: BridgeInfo;
  try {
    bridge = await waitForBridgeFile(path.join(dataDir, 'bridge.json'), child, () => log);
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    ...bridge,
    dataDir,
    workspace,
    pageUrl: `${bridge.url}/#token=${bridge.token}`,
    async call<T>(method: 'GET' | 'POST', apiPath: string, body?: unknown) {
      const response = await fetch(`${bridge.url}/api/local${apiPath}`, {
        method,
        headers: {
          authorization: `Bearer ${bridge.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as T };
    },
    output: () => log,
    async restart() {
      await terminate(child);
      child = launch([]);
      return waitForBridgeFile(path.join(dataDir, 'bridge.json'), child, () => log);
    },
    stop,
  };
}

function withoutLlmProfile(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('MAESTRO_LLM_')));
}

async function waitForBridgeFile(file: string, child: ChildProcess, output: () => string): Promise<BridgeInfo> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`the headless host exited with ${child.exitCode} before it was ready:\n${output()}`);
    }
    try {
      const info = JSON.parse(fs.readFileSync(file, 'utf8')) as BridgeInfo;
      if (info.url && info.token) return info;
    } catch {
      // Not written yet (or mid-write): poll again.
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no ${file} after ${READY_TIMEOUT_MS} ms:\n${output()}`);
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

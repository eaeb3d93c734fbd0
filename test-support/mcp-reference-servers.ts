// Test support: the MCP reference servers as their authors ship them (`@modelcontextprotocol/server-everything`,
// `server-filesystem`): mcp.json entries for stdio, and server-everything started on a free loopback port in its
// streamable HTTP or SSE mode (`node dist/index.js streamableHttp|sse`, PORT from the environment).
import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';

export const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');

export const everythingStdio = (extra: Record<string, unknown> = {}) => ({
  type: 'stdio',
  command: process.execPath,
  args: [EVERYTHING, 'stdio'],
  ...extra,
});

export interface RunningServer {
  /** The MCP endpoint: `/mcp` (streamable HTTP) or `/sse`. */
  url: string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** server-everything in `mode`, once it says it listens (it logs to stderr). */
export async function startEverything(mode: 'streamableHttp' | 'sse'): Promise<RunningServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [EVERYTHING, mode], {
    env: { PATH: process.env.PATH, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let said = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-everything ${mode} did not start: ${said}`)), 15_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      said += chunk.toString('utf8');
      if (new RegExp(`(listening on|running on) port ${port}`, 'i').test(said)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything ${mode} exited (${code}): ${said}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

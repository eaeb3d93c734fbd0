// Test support: mcp.json entries for the test MCP servers (the good one and the faulty one), and writing a
// workspace's `.maestro/mcp.json`.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(__dirname, '..');
/** tsx's loader by absolute URL: the server runs with the workspace (a temp dir) as its working folder. */
const TSX_LOADER = pathToFileURL(path.join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
export const STDIO_SERVER = path.join(ROOT, 'test-support', 'mcp-stdio-server.ts');

/** A stdio entry running mcp-stdio-server.ts; it appends its pid to `pidFile`. */
export function stdioServerEntry(pidFile: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    command: process.execPath,
    args: ['--import', TSX_LOADER, STDIO_SERVER],
    env: { MCP_TEST_PID_FILE: pidFile },
    ...extra,
  };
}

export const ASKING_SERVER = path.join(ROOT, 'test-support', 'mcp-asking-server.ts');

/** A stdio entry running mcp-asking-server.ts: tools that elicit, sample and list roots while they run. */
export function askingServerEntry(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { command: process.execPath, args: ['--import', TSX_LOADER, ASKING_SERVER], ...extra };
}

export const FAULTY_SERVER = path.join(ROOT, 'test-support', 'mcp-faulty-server.mjs');

/** A stdio entry running mcp-faulty-server.mjs in `mode` (garbage, banner, hang, exit, malformed, bad-list). */
export function faultyServerEntry(mode: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [FAULTY_SERVER, mode], ...extra };
}

/** The lines of a JSON-lines file the test stdio server writes (`MCP_TEST_EVENTS_FILE`); none when absent. */
export function eventLines(file: string): Record<string, unknown>[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

export function writeMcpConfig(workspace: string, servers: Record<string, unknown>): string {
  const file = path.join(workspace, '.maestro', 'mcp.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ mcpServers: servers }, null, 2));
  return file;
}

/** The pids mcp-stdio-server.ts wrote to `pidFile` (one per start). */
export function startedPids(pidFile: string): number[] {
  if (!fs.existsSync(pidFile)) return [];
  return fs
    .readFileSync(pidFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => Number(line));
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves once every pid has exited; rejects after `timeoutMs`. */
export async function waitForExit(pids: readonly number[], timeoutMs = 6000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (pids.some(isAlive)) {
    if (Date.now() > until) throw new Error(`still running after ${timeoutMs} ms: ${pids.filter(isAlive).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// Test support for the MCP session tests, which run in Node only (the browser specs' tsconfig takes
// test-support/mcp-*.ts, so this is not one): the context a tool's call gets, and a connection to the reference
// filesystem server as a job would open it.
import path from 'node:path';
import { DEFAULT_TIMEOUTS, type McpServerConfig, parseMcpConfig } from '../src-main/mcp/config';
import { McpConnection } from '../src-main/mcp/connection';
import type { SandboxChoice } from '../src-main/tools/os-sandbox';
import type { ToolContext, ToolProgress } from '../src-main/tools/types';
import { FILESYSTEM } from './mcp-reference-servers';

/** The context an MCP tool's call gets in a session test: no workspace to speak of, no sandbox. */
export const mcpToolContext = (
  signal: AbortSignal = new AbortController().signal,
  progress?: (update: ToolProgress) => void,
): ToolContext => ({
  taskId: 't',
  jobId: 'j',
  workspacePath: '/',
  canEdit: false,
  signal,
  sandbox: { ok: false, reason: 'none in this test' },
  ...(progress ? { progress } : {}),
});

/**
 * A connection to server-filesystem rooted at `workspace` (and `moreRoots`; in `sandbox`, when given), as a job would
 * open it.
 */
export function openFilesystemServer(
  workspace: string,
  sandbox?: SandboxChoice,
  moreRoots: readonly string[] = [],
): Promise<McpConnection> {
  // The server runs from this checkout's node_modules, which the sandbox hides when the checkout is in /tmp or home.
  const readable = [path.resolve('node_modules')];
  const entry = { fs: { command: process.execPath, args: [FILESYSTEM, workspace, ...moreRoots], readable } };
  const [config] = parseMcpConfig(JSON.stringify({ mcpServers: entry }), 'mcp.json', workspace);
  return McpConnection.open(config as McpServerConfig, {
    token: null,
    signal: new AbortController().signal,
    timeouts: { ...DEFAULT_TIMEOUTS, startupMs: 20_000 },
    clientVersion: 'test',
    ...(sandbox ? { sandbox } : {}),
  });
}

// POST /mcp/servers and /mcp/remove: a server added to or removed from a workspace's `.maestro/mcp.json` as a
// person typed it in Settings, accepted as written (mcp/config-edit.ts); a secret env value sealed as the server's
// token (token-store.ts), never in the file. Only the contract reaches these: no tool of the agent calls an operation.
import type { OpOutput, OpParsedInput } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import { resumeSettingsWaits } from '../jobs/settings-wait';
import { MCP_FILE, mcpFile } from '../mcp/config';
import { draftEntry, editMcpFile, hasServer, McpEntryError, withoutServer, withServer } from '../mcp/config-edit';
import { needsToken } from '../mcp/servers';
import { resolveWorkspaceFolder } from '../tasks/create';
import { invalid, notFound } from '../tasks/errors';
import { onDisk } from '../workspace/accepted-settings';
import type { AppContext } from './context';
import { resumeParked } from './mcp-operations';
import { conflictOnFileError, knownWorkspace } from './settings-change-operations';

/** Whether the file as it is now, or its accepted version, has the server. */
function inFile(ctx: AppContext, workspace: string, name: string): boolean {
  const current = conflictOnFileError(() => onDisk(workspace, MCP_FILE));
  return hasServer(current, name, workspace) || hasServer(ctx.accepted.accepted(workspace, MCP_FILE), name, workspace);
}

/** The loader's refusal of the typed entry is the caller's 400, naming the form's field. */
function asInvalid<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof McpEntryError) throw invalid(`server.${error.field}`, error.why);
    throw error;
  }
}

/** Jobs parked on settings or on a token go on when the file no longer holds them up. */
function resumeWaiting(ctx: AppContext, workspace: string): void {
  conflictOnFileError(() => resumeSettingsWaits(ctx.store, ctx.accepted, workspace));
  const all = conflictOnFileError(() => ctx.mcp.configs(workspace));
  if (!all.some((s) => s.enabled && needsToken(ctx.mcp.view(workspace, s).token))) resumeParked(ctx.store, workspace);
}

export function addMcpServer(ctx: AppContext, input: OpParsedInput<'addMcpServer'>): OpOutput<'addMcpServer'> {
  const workspace = knownWorkspace(ctx, resolveWorkspaceFolder(input.workspacePath));
  const { name } = input.server;
  if (inFile(ctx, workspace, name)) {
    throw invalid('server.name', `${name} is already a server in ${mcpFile(workspace)}`);
  }
  const { entry, secret } = draftEntry(input.server);
  // Refused by the loader before anything is kept, the secret included (the write below checks it again).
  asInvalid(() =>
    withServer(
      conflictOnFileError(() => onDisk(workspace, MCP_FILE)),
      name,
      entry,
      workspace,
    ),
  );
  // Whatever a server of this name left (a token, a status) belonged to one that is gone.
  conflictOnFileError(() => ctx.mcp.forget(workspace, name));
  if (secret !== null) conflictOnFileError(() => ctx.mcp.tokens.save(workspace, name, secret));
  try {
    asInvalid(() => editMcpFile(ctx.accepted, workspace, (text) => withServer(text, name, entry, workspace)));
  } catch (error) {
    if (secret !== null) ctx.mcp.forget(workspace, name);
    throw error;
  }
  // A server of this name a person turned off before is a new one now: it starts on.
  if (ctx.accepted.mcpSwitches(workspace)[name] === false) {
    conflictOnFileError(() => ctx.accepted.switchMcpServer(workspace, name, true));
  }
  resumeWaiting(ctx, workspace);
  const server = conflictOnFileError(() => ctx.mcp.configs(workspace)).find((s) => s.name === name);
  if (!server) throw new MaestroError('conflict', `${name} was written to ${mcpFile(workspace)} but is not in force`);
  return { server: ctx.mcp.view(workspace, server) };
}

export function removeMcpServer(ctx: AppContext, input: OpParsedInput<'removeMcpServer'>): OpOutput<'removeMcpServer'> {
  const workspace = knownWorkspace(ctx, resolveWorkspaceFolder(input.workspacePath));
  if (!inFile(ctx, workspace, input.server)) {
    throw notFound('MCP server', `${input.server} in ${mcpFile(workspace)}`);
  }
  editMcpFile(ctx.accepted, workspace, (text) => withoutServer(text, input.server, workspace));
  conflictOnFileError(() => ctx.mcp.forget(workspace, input.server));
  resumeWaiting(ctx, workspace);
  return { servers: conflictOnFileError(() => ctx.mcp.list(workspace)) };
}

// GET /mcp/servers/:workspacePath, POST /mcp/tokens, /mcp/enabled and /mcp/check: a workspace's MCP
// servers with their token status (never a token) and how each is doing; saving a token, which queues again the jobs
// of that workspace parked on mcp_auth_required (P2.16); turning a server off or on (a person's choice in Settings,
// kept with the accepted settings, so it applies without review); and starting one now to see its tools.
import type { OpOutput, OpParsedInput } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import { type JobRecord, toJob } from '../db/repos/jobs';
import type { Store } from '../db/store';
import { wakeParked } from '../jobs/wake';
import { type McpServerConfig, mcpFile, takesToken } from '../mcp/config';
import type { SignInStart } from '../mcp/oauth';
import { SignInError } from '../mcp/oauth';
import { type McpServers, needsToken } from '../mcp/servers';
import { resolveWorkspaceFolder } from '../tasks/create';
import { invalid } from '../tasks/errors';
import { requireTask } from '../tasks/queries';
import { ConfigFileError } from '../workspace/json-file';
import type { AppContext } from './context';
import { knownWorkspace } from './settings-change-operations';

export function listMcpServers(ctx: AppContext, input: OpParsedInput<'listMcpServers'>): OpOutput<'listMcpServers'> {
  const workspace = resolveWorkspaceFolder(input.workspacePath);
  try {
    return { servers: ctx.mcp.list(workspace), error: null };
  } catch (error) {
    if (error instanceof ConfigFileError) return { servers: [], error: error.message };
    throw error;
  }
}

/** The named server of the workspace's mcp.json in force: 404 when there is none, 409 when the file is broken. */
function serverOf(
  ctx: AppContext,
  workspace: string,
  name: string,
): { server: McpServerConfig; all: McpServerConfig[] } {
  let all: McpServerConfig[];
  try {
    all = ctx.mcp.configs(workspace);
  } catch (error) {
    if (error instanceof ConfigFileError) throw new MaestroError('conflict', error.message);
    throw error;
  }
  const server = all.find((s) => s.name === name);
  if (!server) throw new MaestroError('not_found', `no MCP server named ${name} in ${mcpFile(workspace)}`);
  return { server, all };
}

export function saveMcpToken(ctx: AppContext, input: OpParsedInput<'saveMcpToken'>): OpOutput<'saveMcpToken'> {
  const workspace = resolveWorkspaceFolder(input.workspacePath);
  const { server, all } = serverOf(ctx, workspace, input.server);
  if (!takesToken(server)) {
    throw invalid(
      'server',
      `${server.name} is a stdio server without auth.env in ${mcpFile(workspace)}: it takes no token`,
    );
  }
  try {
    ctx.mcp.tokens.save(workspace, server.name, input.token);
  } catch (error) {
    if (error instanceof ConfigFileError) throw new MaestroError('conflict', error.message);
    throw error;
  }
  const resumed = resumeUnblocked(ctx.mcp, ctx.store, workspace, all);
  return { server: ctx.mcp.view(workspace, server), resumed: resumed.map(toJob) };
}

/**
 * Starts a person's OAuth sign-in to an HTTP server of the workspace: the address their browser opens (it comes back
 * to this host's loopback address, and the workspace's parked jobs go on), or null when it signed in at once.
 */
export async function startMcpSignIn(
  ctx: AppContext,
  input: OpParsedInput<'startMcpSignIn'>,
): Promise<OpOutput<'startMcpSignIn'>> {
  const workspace = knownWorkspace(ctx, resolveWorkspaceFolder(input.workspacePath));
  const { server } = serverOf(ctx, workspace, input.server);
  if (server.transport === 'stdio') {
    throw invalid('server', `${server.name} runs on this machine (stdio): it has no sign-in`);
  }
  let started: SignInStart;
  try {
    started = await ctx.mcp.signIn(workspace, server);
  } catch (error) {
    if (error instanceof SignInError) throw new MaestroError('conflict', error.message);
    throw error;
  }
  return {
    authorizationUrl: started.kind === 'open' ? started.authorizationUrl : null,
    server: ctx.mcp.view(workspace, server),
  };
}

/** Finishes a sign-in with the address the person's browser ended on (a host the browser cannot reach). */
export async function completeMcpSignIn(
  ctx: AppContext,
  input: OpParsedInput<'completeMcpSignIn'>,
): Promise<OpOutput<'completeMcpSignIn'>> {
  const workspace = knownWorkspace(ctx, resolveWorkspaceFolder(input.workspacePath));
  const { server } = serverOf(ctx, workspace, input.server);
  try {
    // Signed in, the workspace's parked jobs are queued again (host-core.ts's onSignedIn), as from the callback.
    await ctx.mcp.signIns.complete(workspace, server.name, input.address);
  } catch (error) {
    if (error instanceof SignInError) throw new MaestroError('conflict', error.message);
    throw error;
  }
  return { server: ctx.mcp.view(workspace, server) };
}

export function setMcpServerEnabled(
  ctx: AppContext,
  input: OpParsedInput<'setMcpServerEnabled'>,
): OpOutput<'setMcpServerEnabled'> {
  const workspace = knownWorkspace(ctx, resolveWorkspaceFolder(input.workspacePath));
  serverOf(ctx, workspace, input.server);
  try {
    ctx.accepted.switchMcpServer(workspace, input.server, input.enabled);
  } catch (error) {
    if (error instanceof ConfigFileError) throw new MaestroError('conflict', error.message);
    throw error;
  }
  // A server turned off no longer holds up the parked jobs of the workspace.
  const all = ctx.mcp.configs(workspace);
  if (!input.enabled && !all.some((s) => s.enabled && needsToken(ctx.mcp.view(workspace, s).token))) {
    resumeParked(ctx.store, workspace);
  }
  return { server: ctx.mcp.view(workspace, serverOf(ctx, workspace, input.server).server) };
}

export async function checkMcpServer(
  ctx: AppContext,
  input: OpParsedInput<'checkMcpServer'>,
): Promise<OpOutput<'checkMcpServer'>> {
  const workspace = knownWorkspace(ctx, resolveWorkspaceFolder(input.workspacePath));
  return { server: await ctx.mcp.check(workspace, serverOf(ctx, workspace, input.server).server) };
}

/**
 * Queues again the workspace's jobs parked on mcp_auth_required, unless another server of the workspace that is on
 * still has no token (a parked job would only park again).
 */
export function resumeUnblocked(
  mcp: McpServers,
  store: Store,
  workspace: string,
  all: McpServerConfig[] = mcp.configs(workspace),
): JobRecord[] {
  return all.some((s) => s.enabled && needsToken(mcp.view(workspace, s).token)) ? [] : resumeParked(store, workspace);
}

/**
 * Queues again every job of the workspace parked on mcp_auth_required (CAS: a job cancelled meanwhile stays so). It
 * parked before its engine ran, so its pending Invoke is still there and the run resumes in its resumeMovement.
 */
export function resumeParked(store: Store, workspace: string): JobRecord[] {
  return store.transact(() =>
    // The persistent tasks of the workspace whose latest job waits for a person (an index lookup), of those the token's.
    store.tasks.idsInWorkspace(workspace, 'waiting_human').flatMap((taskId) => {
      const job = store.jobs.latestForTask(taskId);
      if (job?.status !== 'waiting_human' || job.waitReason !== 'mcp_auth_required') return [];
      return [wakeParked(store, job.id, 'token_saved')];
    }),
  );
}

/** GET /tasks/:taskId/mcp-prompts: what the task's MCP servers ask the person now, while their calls wait. */
export function listMcpPrompts(ctx: AppContext, input: OpParsedInput<'listMcpPrompts'>): OpOutput<'listMcpPrompts'> {
  requireTask(ctx, input.taskId);
  return { prompts: ctx.mcp.prompts.list(input.taskId) };
}

/**
 * POST /tasks/:taskId/mcp-prompts/:promptId/answer: the person's answer goes back to the server at once (a form's
 * content checked against its fields first: a bad one is refused naming each field, and the question stays open).
 */
export function answerMcpPrompt(ctx: AppContext, input: OpParsedInput<'answerMcpPrompt'>): OpOutput<'answerMcpPrompt'> {
  requireTask(ctx, input.taskId);
  return { prompt: ctx.mcp.prompts.answer(input.taskId, input.promptId, input.action, input.content) };
}

// GET /mcp/servers/:workspacePath and POST /mcp/tokens: a workspace's MCP servers and their token status (never a
// token), and saving a token, which queues again the jobs of that workspace parked on mcp_auth_required (P2.16).
import type { OpOutput, OpParsedInput } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import { type JobRecord, toJob } from '../db/repos/jobs';
import type { Store } from '../db/store';
import { changeJob } from '../jobs/lifecycle';
import { type McpServerConfig, mcpFile, takesToken } from '../mcp/config';
import { needsToken } from '../mcp/servers';
import { resolveWorkspaceFolder } from '../tasks/create';
import { invalid } from '../tasks/errors';
import { ConfigFileError } from '../workspace/json-file';
import type { AppContext } from './context';

export function listMcpServers(ctx: AppContext, input: OpParsedInput<'listMcpServers'>): OpOutput<'listMcpServers'> {
  const workspace = resolveWorkspaceFolder(input.workspacePath);
  try {
    return { servers: ctx.mcp.list(workspace), error: null };
  } catch (error) {
    if (error instanceof ConfigFileError) return { servers: [], error: error.message };
    throw error;
  }
}

export function saveMcpToken(ctx: AppContext, input: OpParsedInput<'saveMcpToken'>): OpOutput<'saveMcpToken'> {
  const workspace = resolveWorkspaceFolder(input.workspacePath);
  let servers: McpServerConfig[];
  try {
    servers = ctx.mcp.configs(workspace);
  } catch (error) {
    if (error instanceof ConfigFileError) throw new MaestroError('conflict', error.message);
    throw error;
  }
  const server = servers.find((s) => s.name === input.server);
  if (!server) throw new MaestroError('not_found', `no MCP server named ${input.server} in ${mcpFile(workspace)}`);
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
  // While another server of the workspace still has no token, a parked job would only park again.
  const blocked = servers.some((s) => needsToken(ctx.mcp.view(workspace, s).token));
  const resumed = blocked ? [] : resumeParked(ctx.store, workspace);
  return { server: ctx.mcp.view(workspace, server), resumed: resumed.map(toJob) };
}

/**
 * Queues again every job of the workspace parked on mcp_auth_required (CAS: a job cancelled meanwhile stays so). It
 * parked before its engine ran, so its pending Invoke is still there and the run resumes in its resumeMovement.
 */
export function resumeParked(store: Store, workspace: string): JobRecord[] {
  return store.transact(() =>
    store.tasks.list().flatMap((task) => {
      if (task.workspacePath !== workspace || store.tasks.workspaceKind(task.id) !== 'persistent') return [];
      const job = store.jobs.latestForTask(task.id);
      if (job?.status !== 'waiting_human' || job.waitReason !== 'mcp_auth_required') return [];
      const queued = changeJob(store, job, 'queued');
      return queued ? [queued] : [];
    }),
  );
}

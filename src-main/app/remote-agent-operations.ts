// GET /agents/remote/:workspacePath and POST /agents/tokens: a workspace's remote agents (its agents.json in force)
// with their token status (never a token), and saving the token one of them takes.
import type { OpOutput, OpParsedInput, RemoteAgentView } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import { resolveWorkspaceFolder } from '../tasks/create';
import { invalid } from '../tasks/errors';
import { agentsFile, loadAgentsConfig, type RemoteAgentConfig } from '../tools/remote-agents';
import { ConfigFileError } from '../workspace/json-file';
import type { AppContext } from './context';
import { conflictOnFileError } from './settings-change-operations';

function view(ctx: AppContext, workspace: string, agent: RemoteAgentConfig): RemoteAgentView {
  const state = ctx.agentTokens.state(workspace, agent.name);
  let token: RemoteAgentView['token'] = !agent.takesToken ? 'none' : state.rejected ? 'rejected' : 'missing';
  if (agent.takesToken && state.hasToken) {
    try {
      ctx.agentTokens.open(workspace, agent.name);
      token = state.rejected ? 'rejected' : 'saved';
    } catch {
      token = 'unreadable';
    }
  }
  const { name, url, description, takesToken, tokenRequired } = agent;
  return { name, url, description, takesToken, tokenRequired, token };
}

export function listRemoteAgents(
  ctx: AppContext,
  input: OpParsedInput<'listRemoteAgents'>,
): OpOutput<'listRemoteAgents'> {
  const workspace = resolveWorkspaceFolder(input.workspacePath);
  try {
    return {
      agents: loadAgentsConfig(workspace, ctx.accepted.inForce).map((a) => view(ctx, workspace, a)),
      error: null,
    };
  } catch (error) {
    if (error instanceof ConfigFileError) return { agents: [], error: error.message };
    throw error;
  }
}

export function saveRemoteAgentToken(
  ctx: AppContext,
  input: OpParsedInput<'saveRemoteAgentToken'>,
): OpOutput<'saveRemoteAgentToken'> {
  const workspace = resolveWorkspaceFolder(input.workspacePath);
  const agents = conflictOnFileError(() => loadAgentsConfig(workspace, ctx.accepted.inForce));
  const agent = agents.find((a) => a.name === input.agent);
  if (!agent) throw new MaestroError('not_found', `no remote agent named ${input.agent} in ${agentsFile(workspace)}`);
  if (!agent.takesToken) {
    throw invalid('agent', `${agent.name} has no auth in ${agentsFile(workspace)}: it takes no token`);
  }
  conflictOnFileError(() => ctx.agentTokens.save(workspace, agent.name, input.token));
  return { agent: view(ctx, workspace, agent) };
}

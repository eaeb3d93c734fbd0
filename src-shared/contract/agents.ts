// A workspace's remote agents (`.maestro/agents.json`, for the a2a_send tool) with their token status (never a
// token), and saving the token one of them takes.
import { z } from 'zod';
import { SecretToken } from './mcp';
import { op } from './operation';

/** A remote agent's name in a workspace's agents.json: what a2a_send calls it by, and its token's key. */
export const REMOTE_AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;

/** A remote agent as every output shows it: never its token, only the token's status. */
export const RemoteAgentView = z.object({
  name: z.string(),
  url: z.string(),
  description: z.string(),
  /** Whether a saved token goes with its calls, and whether a call without one is refused. */
  takesToken: z.boolean(),
  tokenRequired: z.boolean(),
  /** `rejected`: the agent answered 401 the last time; `unreadable`: the saved token cannot be opened. */
  token: z.enum(['none', 'missing', 'saved', 'rejected', 'unreadable']),
});
export type RemoteAgentView = z.infer<typeof RemoteAgentView>;

const WorkspacePath = z.string().min(1).max(4096);

export const agentOperations = {
  /** The remote agents of a workspace (its agents.json in force) and their tokens' status; `error`: a broken file. */
  listRemoteAgents: op({
    method: 'GET',
    path: '/agents/remote/:workspacePath',
    status: 200,
    input: z.object({ workspacePath: WorkspacePath }).strict(),
    output: z.object({ agents: z.array(RemoteAgentView), error: z.string().nullable() }),
  }),
  /** Saves (replaces) the token a workspace's remote agent takes; it is sealed, and never in any output. */
  saveRemoteAgentToken: op({
    method: 'POST',
    path: '/agents/tokens',
    status: 200,
    input: z
      .object({
        workspacePath: WorkspacePath,
        agent: z.string().regex(REMOTE_AGENT_NAME, "must be a remote agent name of the workspace's agents.json"),
        /** The token alone (no "Bearer "); it never appears in any output. */
        token: SecretToken,
      })
      .strict(),
    output: z.object({ agent: RemoteAgentView }),
  }),
};

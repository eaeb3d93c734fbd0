// What a job connects to an MCP server with (a pasted token, or a sign-in's), and whether the server took it.
import { type McpServerConfig, takesToken } from './config';
import type { McpAuthError } from './connection-errors';
import { JobOAuthProvider, refreshIfExpiring, SignInNeeded, signedIn } from './oauth-provider';
import { authRequiredMessage, type SessionServer } from './session';
import { McpTokenError, type McpTokenStore } from './token-store';

/**
 * The credentials a job connects to `config` with: a pasted token, or a sign-in's (refreshed first when about to
 * expire); a string says why there are none it can use (the job parks).
 */
export async function credentialsFor(
  tokens: McpTokenStore,
  workspacePath: string,
  config: McpServerConfig,
): Promise<SessionServer | string> {
  if (config.transport !== 'stdio' && signedIn(tokens, workspacePath, config.name)) {
    const authProvider = new JobOAuthProvider({ tokens, workspace: workspacePath, server: config.name });
    try {
      await refreshIfExpiring(authProvider, config.url);
    } catch (error) {
      if (error instanceof SignInNeeded) {
        return authRequiredMessage(config.name, error.renewFailed ? 'unreachable' : 'expired');
      }
      if (error instanceof McpTokenError) return `${error.message}.`;
      return authRequiredMessage(config.name, 'unreachable', (error as Error).message);
    }
    return { config, token: null, authProvider };
  }
  let token: string | null = null;
  try {
    token = takesToken(config) ? tokens.open(workspacePath, config.name) : null;
  } catch (error) {
    if (!(error instanceof McpTokenError)) throw error;
    return `${error.message}.`;
  }
  if (config.authRequired && token === null) {
    // A tokens file that cannot be read holds no token: say why instead of only asking for one.
    return `${authRequiredMessage(config.name, 'missing')}${tokens.error ? ` (${tokens.error.message})` : ''}`;
  }
  return { config, token };
}

/**
 * Remembers whether the server took the job's credentials, for listMcpServers (a file that cannot be written only
 * loses that). A sign-in's tokens it refused are dropped (the person signs in again); ones that could not be renewed
 * for want of an answer are kept for when it answers.
 */
export function rememberAuth(
  tokens: McpTokenStore,
  workspacePath: string,
  server: string,
  refusal: McpAuthError | null,
): void {
  try {
    if (!refusal) tokens.markAccepted(workspacePath, server);
    else {
      tokens.markRejected(workspacePath, server);
      if (!refusal.renewFailed) tokens.dropOAuth(workspacePath, server, 'tokens');
    }
  } catch (error) {
    console.error(`cannot remember whether MCP server ${server} took its token:`, (error as Error).message);
  }
}

// The MCP servers of every workspace, for the app: what each needs (a token given or not, refused or not, never the
// token itself), saving a token, and opening a job's servers after the token check (spec §2 K → KH / L).

import type { McpServerView } from '../../src-shared/contract';
import type { SandboxChoice } from '../tools/os-sandbox';
import type { SettingsText } from '../workspace/accepted-settings';
import { loadMcpConfig, type McpServerConfig, takesToken } from './config';
import { McpAuthError } from './connection';
import { authRequiredMessage, type McpJobServers, type McpOpenResult, McpSession, type SessionServer } from './session';
import { McpTokenError, type McpTokenStore } from './token-store';

export type McpTokenStatus = McpServerView['token'];

/** Statuses that keep a job from starting until a token is saved. */
export const needsToken = (status: McpTokenStatus) => status === 'missing' || status === 'unreadable';

export interface McpServersOptions {
  clientVersion: string;
  /** Connecting, listing tools, and each tool call; default 60 s. */
  timeoutMs?: number;
  /** The OS sandbox stdio servers run in. */
  sandbox?: SandboxChoice;
  /** The text of a workspace's mcp.json in force: the app passes the accepted version's (default: the file). */
  read?: SettingsText;
}

export class McpServers implements McpJobServers {
  constructor(
    readonly tokens: McpTokenStore,
    private readonly options: McpServersOptions,
  ) {}

  /** The workspace's servers and their token status. Throws ConfigFileError on a broken mcp.json. */
  list(workspacePath: string): McpServerView[] {
    return this.configs(workspacePath).map((s) => this.view(workspacePath, s));
  }

  /** The workspace's servers in force. Throws ConfigFileError on a broken mcp.json. */
  configs(workspacePath: string): McpServerConfig[] {
    return loadMcpConfig(workspacePath, this.options.read);
  }

  view(workspacePath: string, server: McpServerConfig): McpServerView {
    const state = this.tokens.state(workspacePath, server.name);
    let token: McpTokenStatus = state.rejected ? 'rejected' : server.authRequired ? 'missing' : 'none';
    if (state.hasToken) {
      try {
        this.tokens.open(workspacePath, server.name);
        token = state.rejected ? 'rejected' : 'saved';
      } catch {
        token = 'unreadable';
      }
    }
    return {
      name: server.name,
      transport: server.transport,
      authRequired: server.authRequired,
      takesToken: takesToken(server),
      token,
    };
  }

  tokenSavedSince(savedCount: number): boolean {
    return this.tokens.savedCount !== savedCount;
  }

  async open(workspacePath: string, signal: AbortSignal): Promise<McpOpenResult> {
    const savedCount = this.tokens.savedCount;
    const servers: SessionServer[] = [];
    for (const config of this.configs(workspacePath)) {
      let token: string | null = null;
      try {
        token = takesToken(config) ? this.tokens.open(workspacePath, config.name) : null;
      } catch (error) {
        if (!(error instanceof McpTokenError)) throw error;
        return { kind: 'auth_required', server: config.name, message: `${error.message}.`, savedCount };
      }
      if (config.authRequired && token === null) {
        return {
          kind: 'auth_required',
          server: config.name,
          // A tokens file that cannot be read holds no token: say why instead of only asking for one.
          message: `${authRequiredMessage(config.name, 'missing')}${this.tokens.error ? ` (${this.tokens.error.message})` : ''}`,
          savedCount,
        };
      }
      servers.push({ config, token });
    }
    try {
      const session = await McpSession.open(servers, {
        signal,
        timeoutMs: this.options.timeoutMs ?? 60_000,
        clientVersion: this.options.clientVersion,
        sandbox: this.options.sandbox,
        onAuth: (server, accepted) => this.remember(workspacePath, server, accepted),
      });
      return { kind: 'ready', session };
    } catch (error) {
      if (!(error instanceof McpAuthError)) throw error;
      return {
        kind: 'auth_required',
        server: error.server,
        message: authRequiredMessage(
          error.server,
          servers.some((s) => s.config.name === error.server && s.token !== null) ? 'refused' : 'asked',
        ),
        savedCount,
      };
    }
  }

  /** Whether the server took the credentials, for listMcpServers; a file that cannot be written only loses that. */
  private remember(workspacePath: string, server: string, accepted: boolean): void {
    try {
      if (accepted) this.tokens.markAccepted(workspacePath, server);
      else this.tokens.markRejected(workspacePath, server);
    } catch (error) {
      console.error(`cannot remember whether MCP server ${server} took its token:`, (error as Error).message);
    }
  }
}

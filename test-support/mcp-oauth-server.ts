// Test support: an MCP server behind OAuth, made of the MCP SDK's own parts — an authorization server
// (`mcpAuthRouter` over the SDK's `DemoInMemoryAuthProvider`: metadata, dynamic client registration, an authorize
// endpoint that consents at once and redirects to the registered redirect_uri, the token endpoint with its PKCE check)
// and a resource server (`requireBearerAuth` with the protected-resource metadata, the test tools over stateless
// streamable HTTP). The demo provider issues no refresh tokens and cannot revoke; the subclass here adds both, and
// tokens that expire when the test says.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DemoInMemoryAuthProvider } from '@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import {
  createOAuthMetadata,
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthMetadataRouter,
  mcpAuthRouter,
} from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { serveStateless } from './mcp-http-server';

interface Grant {
  clientId: string;
  scopes: string[];
  resource?: URL;
}

/** The demo provider with refresh tokens, revocation and a lifetime of the test's choosing. */
class RefreshingProvider extends DemoInMemoryAuthProvider {
  private readonly access = new Map<string, Grant & { expiresAt: number }>();
  private readonly refresh = new Map<string, Grant>();
  private issued = 0;
  /** Seconds an access token lives. */
  lifetimeS = 3600;
  /** The grant types of the token requests, in order. */
  readonly grants: string[] = [];

  override async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
    verifier?: string,
  ): Promise<OAuthTokens> {
    this.grants.push('authorization_code');
    const first = await super.exchangeAuthorizationCode(client, code, verifier);
    const info = await super.verifyAccessToken(first.access_token);
    return this.issue({ clientId: client.client_id, scopes: info.scopes, resource: info.resource });
  }

  override async exchangeRefreshToken(client: OAuthClientInformationFull, token: string): Promise<OAuthTokens> {
    this.grants.push('refresh_token');
    const grant = this.refresh.get(token);
    if (!grant || grant.clientId !== client.client_id) throw new InvalidGrantError('refresh token revoked or unknown');
    this.refresh.delete(token);
    return this.issue(grant);
  }

  override async verifyAccessToken(token: string): Promise<AuthInfo> {
    const grant = this.access.get(token);
    if (!grant) throw new InvalidTokenError('token revoked or unknown');
    if (grant.expiresAt <= Date.now()) throw new InvalidTokenError('token expired');
    const { clientId, scopes, resource, expiresAt } = grant;
    return { token, clientId, scopes, expiresAt: Math.floor(expiresAt / 1000), ...(resource ? { resource } : {}) };
  }

  /** Every access token issued so far, in order. */
  readonly accessTokens: string[] = [];
  /** Every refresh token issued so far, in order. */
  readonly refreshTokens: string[] = [];

  revoke(what: 'access' | 'all'): void {
    this.access.clear();
    if (what === 'all') this.refresh.clear();
  }

  private issue(grant: Grant): OAuthTokens {
    this.issued++;
    const access = `at-${this.issued}-${crypto.randomUUID()}`;
    const refresh = `rt-${this.issued}-${crypto.randomUUID()}`;
    this.access.set(access, { ...grant, expiresAt: Date.now() + this.lifetimeS * 1000 });
    this.refresh.set(refresh, grant);
    this.accessTokens.push(access);
    this.refreshTokens.push(refresh);
    return {
      access_token: access,
      token_type: 'bearer',
      expires_in: this.lifetimeS,
      refresh_token: refresh,
      scope: grant.scopes.join(' '),
    };
  }
}

export interface OAuthMcpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:PORT/mcp. */
  readonly url: string;
  /** The authorization server's issuer URL. */
  readonly issuer: string;
  readonly provider: RefreshingProvider;
  /** The Authorization header of every request the MCP endpoint got, in order. */
  readonly authorizations: (string | undefined)[];
  /** Scopes a token must have from now on (a token without them gets 403 insufficient_scope). */
  requireScopes(scopes: string[]): void;
  /** Stops the authorization server alone (the resource server goes on answering). */
  closeAuthServer(): Promise<void>;
  close(): Promise<void>;
}

async function listen(app: http.RequestListener): Promise<{ server: http.Server; origin: string }> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const closeServer = (server: http.Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

/**
 * Starts the authorization server and the resource server on ports of their own. `authServer` overrides where the
 * resource's metadata says its authorization server is (one that is not there, say).
 */
export async function startOAuthMcpServer(options: { authServer?: string } = {}): Promise<OAuthMcpServer> {
  const provider = new RefreshingProvider();
  const authApp = createMcpExpressApp();
  const as = await listen(authApp);
  const issuerUrl = new URL(as.origin);
  authApp.use(mcpAuthRouter({ provider, issuerUrl, scopesSupported: ['mcp:tools'] }));

  const app = createMcpExpressApp();
  const rs = await listen(app);
  const mcpUrl = new URL(`${rs.origin}/mcp`);
  const oauthMetadata = createOAuthMetadata({ provider, issuerUrl, scopesSupported: ['mcp:tools'] });
  if (options.authServer) oauthMetadata.issuer = options.authServer;
  app.use(mcpAuthMetadataRouter({ oauthMetadata, resourceServerUrl: mcpUrl }));
  const authorizations: (string | undefined)[] = [];
  let requiredScopes: string[] = [];
  const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(mcpUrl);
  app.all('/mcp', (req: http.IncomingMessage & { body?: unknown }, res: http.ServerResponse, next: () => void) => {
    authorizations.push(req.headers.authorization);
    requireBearerAuth({ verifier: provider, requiredScopes, resourceMetadataUrl, expectedResource: mcpUrl })(
      req as never,
      res as never,
      next,
    );
  });
  app.all('/mcp', (req: http.IncomingMessage & { body?: unknown }, res: http.ServerResponse) =>
    serveStateless(req, res, req.body),
  );
  return {
    url: mcpUrl.href,
    issuer: issuerUrl.href,
    provider,
    authorizations,
    requireScopes: (scopes) => {
      requiredScopes = scopes;
    },
    closeAuthServer: () => closeServer(as.server),
    close: async () => {
      await closeServer(rs.server);
      if (as.server.listening) await closeServer(as.server);
    },
  };
}

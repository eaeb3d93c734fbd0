// The SDK's OAuth provider over a server's sealed client and tokens, and a job's use of a sign-in: refreshed or parked.
import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { CodedError } from '../../src-shared/errors';
import type { McpTokenStore, StoredOAuthTokens } from './token-store';

/** A job's server needs the person to sign in (again): the job parks instead of opening a browser. */
export class SignInNeeded extends CodedError {
  readonly code = 'mcp_sign_in_needed';
  constructor(
    readonly server: string,
    /** The tokens could not be renewed for want of an answer (not refused): they are kept for a later try. */
    readonly renewFailed = false,
  ) {
    super(
      renewFailed
        ? `MCP server "${server}": its authorization server did not renew the sign-in`
        : `MCP server "${server}" needs the person to sign in again`,
    );
  }
}

/** An access token this close to its end is refreshed before a job uses it. */
const REFRESH_AHEAD_MS = 60_000;
/** Tokens saved this recently are a refresh's that other calls racing it did not see yet (invalidateCredentials). */
const JUST_REFRESHED_MS = 10_000;

export interface ProviderOptions {
  tokens: McpTokenStore;
  workspace: string;
  server: string;
  now?: () => number;
}

/** The SDK's view of a server's stored client and tokens (shared by the job and the sign-in modes). */
export abstract class StoredProvider implements OAuthClientProvider {
  constructor(protected readonly o: ProviderOptions) {}

  abstract get redirectUrl(): string | undefined;
  abstract redirectToAuthorization(url: URL): void;
  abstract saveCodeVerifier(verifier: string): void;
  abstract codeVerifier(): string;

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'MAESTRO Desktop',
      redirect_uris: this.redirectUrl ? [this.redirectUrl] : [],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // A desktop app keeps no secret (RFC 8252 §8.5): a public client, PKCE instead.
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.o.tokens.oauthClient(this.o.workspace, this.o.server) as OAuthClientInformationMixed | undefined;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.o.tokens.saveOAuthClient(this.o.workspace, this.o.server, info as Record<string, unknown>);
  }

  tokens(): OAuthTokens | undefined {
    const stored = this.o.tokens.oauthTokens(this.o.workspace, this.o.server);
    if (!stored) return undefined;
    const { expiresAt, savedAt: _, ...tokens } = stored;
    const now = (this.o.now ?? Date.now)();
    return expiresAt === undefined
      ? tokens
      : { ...tokens, expires_in: Math.max(0, Math.floor((expiresAt - now) / 1000)) };
  }

  saveTokens(tokens: OAuthTokens): void {
    const now = (this.o.now ?? Date.now)();
    const { expires_in, id_token: _id, ...kept } = tokens;
    // A refresh that issues no new refresh token leaves the old one in force (RFC 6749 §6).
    const refresh = kept.refresh_token ?? this.o.tokens.oauthTokens(this.o.workspace, this.o.server)?.refresh_token;
    const stored: StoredOAuthTokens = {
      ...kept,
      ...(refresh ? { refresh_token: refresh } : {}),
      ...(expires_in !== undefined ? { expiresAt: now + expires_in * 1000 } : {}),
      savedAt: now,
    };
    this.o.tokens.saveOAuthTokens(this.o.workspace, this.o.server, stored, this.signsIn);
  }

  /** Whether tokens saved here end a person's sign-in (jobs parked on it go on), rather than refresh a job's. */
  protected abstract readonly signsIn: boolean;

  /**
   * The authorization server refused what the SDK presented: dropped, unless a refresh has just replaced it. Calls
   * that run at once all meet the expired token and all refresh with the same refresh token; a server that rotates
   * it takes only the first and refuses the others that old token. The tokens the first saved are kept, and the
   * SDK's next try uses them.
   */
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'client') this.o.tokens.dropOAuth(this.o.workspace, this.o.server, 'all');
    else if (scope === 'tokens') {
      const savedAt = this.o.tokens.oauthTokens(this.o.workspace, this.o.server)?.savedAt;
      if (savedAt !== undefined && (this.o.now ?? Date.now)() - savedAt < JUST_REFRESHED_MS) return;
      this.o.tokens.dropOAuth(this.o.workspace, this.o.server, 'tokens');
    }
  }
}

/**
 * A job's provider: the tokens of the last sign-in, refreshed by the SDK when they expire or are refused. Anything
 * that would need the person (no client registered, a refresh refused) throws SignInNeeded: the job parks.
 */
export class JobOAuthProvider extends StoredProvider {
  protected readonly signsIn = false;

  get serverName(): string {
    return this.o.server;
  }

  get redirectUrl(): string | undefined {
    const uris = (this.clientInformation() as { redirect_uris?: string[] } | undefined)?.redirect_uris;
    // Without one the SDK would take this for a machine-to-machine client and ask for tokens on its own.
    return uris?.[0] ?? 'http://127.0.0.1/callback';
  }

  override clientInformation(): OAuthClientInformationMixed | undefined {
    const client = super.clientInformation();
    if (!client) throw new SignInNeeded(this.o.server);
    return client;
  }

  /**
   * The SDK wants the person. A refresh the authorization server refused has had the tokens dropped already
   * (invalidateCredentials); a refresh token still held means the refresh got no answer (the SDK goes on to a new
   * authorization after a network or server error), so the sign-in is kept for when the server is back. Without a
   * refresh token, a refused access token is of no further use.
   */
  redirectToAuthorization(): void {
    const renewFailed = this.tokens()?.refresh_token !== undefined;
    if (!renewFailed) this.o.tokens.dropOAuth(this.o.workspace, this.o.server, 'tokens');
    throw new SignInNeeded(this.o.server, renewFailed);
  }

  saveCodeVerifier(): void {}

  codeVerifier(): string {
    throw new SignInNeeded(this.o.server);
  }
}

/** Whether the server has a sign-in's tokens: its jobs connect with a JobOAuthProvider. */
export const signedIn = (tokens: McpTokenStore, workspace: string, server: string): boolean =>
  tokens.state(workspace, server).signedIn === true;

/**
 * Refreshes a sign-in's access token before a job uses it when it ends within a minute (or has ended), so the job's
 * first call does not meet a refusal. A refresh the authorization server refuses throws SignInNeeded.
 */
export async function refreshIfExpiring(provider: JobOAuthProvider, serverUrl: string): Promise<void> {
  const tokens = provider.tokens();
  if (!tokens?.refresh_token || tokens.expires_in === undefined) return;
  if (tokens.expires_in * 1000 > REFRESH_AHEAD_MS) return;
  const result = await auth(provider, { serverUrl });
  if (result !== 'AUTHORIZED') throw new SignInNeeded(provider.serverName, provider.tokens() !== undefined);
}

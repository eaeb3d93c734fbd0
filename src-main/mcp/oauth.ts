// MCP authorization (the spec's OAuth 2.1 profile) through the SDK's own client: discovery from the server's 401
// (protected-resource, then authorization-server metadata), dynamic client registration, the authorization-code flow
// with PKCE and a resource indicator, and refresh. What is ours is where things live and who may act:
//
// - A sign-in is started by a person (Settings, or the card of a task waiting for it), never by a job: the person's
//   browser opens the authorization URL, and the server sends it back to a loopback listener of this host (RFC 8252
//   §7.3, 127.0.0.1 on a port of its own, checked by a one-time `state`) that lives for that one sign-in. A host the
//   browser cannot reach (a remote host) takes the address the browser ended on instead (completeSignIn).
// - A job uses what the sign-in left (oauth-provider.ts): the SDK attaches the access token, refreshes it before it
//   expires and when the server refuses it; where that needs the person again, the job parks (SignInNeeded) instead
//   of opening anything.
// - The registered client and the tokens are sealed in the token store like a pasted token; nothing of them reaches a
//   log, an event, a prompt or the DB.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { auth, discoverOAuthServerInfo } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { CodedError } from '../../src-shared/errors';
import { type ProviderOptions, StoredProvider } from './oauth-provider';
import type { McpTokenStore } from './token-store';

/** A sign-in could not start or finish; the message says why in the person's words (never a token). */
export class SignInError extends CodedError {
  readonly code = 'mcp_sign_in_failed';
}

/** How long a sign-in waits for the browser to come back. */
export const SIGN_IN_WAIT_MS = 10 * 60_000;
const CALLBACK_PATH = '/callback';

/** A person's sign-in in progress: the browser's way there and back. */
class SignInProvider extends StoredProvider {
  protected readonly signsIn = true;
  private readonly expected = randomBytes(24).toString('base64url');
  private verifier: string | null = null;
  authorizationUrl: URL | null = null;

  constructor(
    o: ProviderOptions,
    readonly redirectUrl: string,
  ) {
    super(o);
  }

  state(): string {
    return this.expected;
  }

  /** A client registered for another redirect address (another port) is registered again. */
  override clientInformation(): OAuthClientInformationMixed | undefined {
    const client = super.clientInformation() as
      | (OAuthClientInformationMixed & { redirect_uris?: string[] })
      | undefined;
    return client?.redirect_uris?.includes(this.redirectUrl) ? client : undefined;
  }

  /** A sign-in asks afresh: the tokens it replaces are not offered for a refresh. */
  override tokens(): OAuthTokens | undefined {
    return undefined;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (this.verifier === null) throw new SignInError('the sign-in was not started here');
    return this.verifier;
  }

  /** Whether `state` is this sign-in's (compared in constant time). */
  owns(state: string | null): boolean {
    const a = Buffer.from(state ?? '');
    const b = Buffer.from(this.expected);
    return a.length === b.length && timingSafeEqual(a, b);
  }
}

export interface SignInTarget {
  workspace: string;
  server: string;
  url: string;
}

export type SignInStart = { kind: 'open'; authorizationUrl: string } | { kind: 'signed_in' };

export interface McpSignInsOptions {
  tokens: McpTokenStore;
  /** A sign-in finished: its jobs may go on. */
  onSignedIn(workspace: string, server: string): void;
  /** A sign-in failed (or ran out of time): why, for Settings. */
  onFailed?(workspace: string, server: string, reason: string): void;
  waitMs?: number;
}

interface Pending {
  target: SignInTarget;
  provider: SignInProvider;
  listener: http.Server;
  timer: NodeJS.Timeout;
}

/** The sign-ins people started, one per server at a time (a second start replaces the first). */
export class McpSignIns {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly o: McpSignInsOptions) {}

  /** Whether a sign-in of the server waits for the browser. */
  waiting(workspace: string, server: string): boolean {
    return this.pending.has(keyOf(workspace, server));
  }

  /**
   * Starts a sign-in: discovers the server's authorization server, registers this app with it where needed, and
   * answers the address the person's browser opens. Throws SignInError naming what failed (a server that offers no
   * OAuth, an authorization server that cannot be reached).
   */
  async start(target: SignInTarget): Promise<SignInStart> {
    const key = keyOf(target.workspace, target.server);
    this.end(key);
    // Whether the server says where to sign in, and that place answers, before anything listens or is registered.
    let info: Awaited<ReturnType<typeof discoverOAuthServerInfo>>;
    try {
      info = await discoverOAuthServerInfo(target.url);
    } catch (error) {
      throw new SignInError(startFailure(target, error));
    }
    if (!info.resourceMetadata && !info.authorizationServerMetadata) {
      throw new SignInError(
        `MCP server "${target.server}" does not offer an OAuth sign-in (it publishes no OAuth metadata); save a token for it instead`,
      );
    }
    if (!info.authorizationServerMetadata) {
      throw new SignInError(
        `the sign-in to MCP server "${target.server}" could not start: its authorization server ` +
          `${info.authorizationServerUrl} cannot be reached or publishes no OAuth metadata`,
      );
    }
    const listener = await listen(this.portOfLastClient(target));
    const port = (listener.address() as AddressInfo).port;
    const redirectUrl = `http://127.0.0.1:${port}${CALLBACK_PATH}`;
    const provider = new SignInProvider(
      { tokens: this.o.tokens, workspace: target.workspace, server: target.server },
      redirectUrl,
    );
    let result: 'AUTHORIZED' | 'REDIRECT';
    try {
      result = await auth(provider, { serverUrl: target.url });
    } catch (error) {
      listener.close();
      throw new SignInError(startFailure(target, error));
    }
    if (result === 'AUTHORIZED' || !provider.authorizationUrl) {
      listener.close();
      this.o.onSignedIn(target.workspace, target.server);
      return { kind: 'signed_in' };
    }
    const timer = setTimeout(() => {
      if (this.pending.get(key)?.provider !== provider) return;
      this.end(key);
      this.o.onFailed?.(target.workspace, target.server, 'the sign-in was not finished within 10 minutes');
    }, this.o.waitMs ?? SIGN_IN_WAIT_MS);
    timer.unref();
    this.pending.set(key, { target, provider, listener, timer });
    listener.on('request', (req, res) => void this.callback(key, provider, req, res));
    return { kind: 'open', authorizationUrl: provider.authorizationUrl.href };
  }

  /**
   * Finishes a sign-in with the address the browser was sent back to (its `code` and `state`), for a host the
   * browser cannot reach. Throws SignInError when no sign-in of the server waits or the address is not its answer.
   */
  async complete(workspace: string, server: string, address: string): Promise<void> {
    const key = keyOf(workspace, server);
    const pending = this.pending.get(key);
    if (!pending) throw new SignInError(`no sign-in of MCP server "${server}" is waiting; start one again`);
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      throw new SignInError('the address is not a URL: give the whole address the browser shows');
    }
    const failure = await this.finish(key, pending.provider, url.searchParams);
    if (failure) throw new SignInError(failure);
  }

  /** Ends every sign-in in progress (the host closes). */
  close(): void {
    for (const key of [...this.pending.keys()]) {
      const listener = this.pending.get(key)?.listener;
      this.end(key);
      listener?.closeAllConnections();
    }
  }

  private async callback(
    key: string,
    provider: SignInProvider,
    req: http.IncomingMessage,
    res: http.ServerResponse,
  ): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== CALLBACK_PATH) {
      res.writeHead(404).end();
      return;
    }
    const server = this.pending.get(key)?.target.server ?? '';
    const failure = await this.finish(key, provider, url.searchParams);
    res.writeHead(failure ? 400 : 200, {
      // The listener ends with the sign-in: a kept-alive connection would carry the next sign-in's answer to it.
      connection: 'close',
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "default-src 'none'",
    });
    res.end(page(failure ? `Sign-in to ${server} failed` : `Signed in to ${server}`, failure ?? DONE_TEXT));
  }

  /** Exchanges the code the browser brought back; answers why not when it cannot (null: signed in). */
  private async finish(key: string, provider: SignInProvider, params: URLSearchParams): Promise<string | null> {
    const pending = this.pending.get(key);
    if (!pending || pending.provider !== provider) return 'this sign-in is over; start it again from MAESTRO';
    // Another page's redirect (no state, or not this one) is not an answer: the sign-in still waits for its own.
    if (!provider.owns(params.get('state'))) return 'this address does not answer the sign-in MAESTRO started';
    const { workspace, server, url } = pending.target;
    this.end(key);
    const refused = params.get('error');
    if (refused) {
      const description = params.get('error_description');
      const reason = `the authorization server answered ${refused}${description ? `: ${description}` : ''}`;
      this.o.onFailed?.(workspace, server, reason);
      return reason;
    }
    const code = params.get('code');
    if (!code) {
      this.o.onFailed?.(workspace, server, 'the authorization server sent no code back');
      return 'the authorization server sent no code back';
    }
    try {
      await auth(provider, { serverUrl: url, authorizationCode: code });
    } catch (error) {
      const reason = `the authorization server did not issue tokens: ${(error as Error).message}`;
      this.o.onFailed?.(workspace, server, reason);
      return reason;
    }
    this.o.onSignedIn(workspace, server);
    return null;
  }

  private end(key: string): void {
    const pending = this.pending.get(key);
    if (!pending) return;
    this.pending.delete(key);
    clearTimeout(pending.timer);
    // No new connection; the browser's request being answered (the callback ends it) is let finish.
    pending.listener.close();
    pending.listener.closeIdleConnections();
  }

  /** The port the registered client was given, so that a sign-in again reuses its registration when it is free. */
  private portOfLastClient(target: SignInTarget): number {
    try {
      const client = this.o.tokens.oauthClient(target.workspace, target.server) as { redirect_uris?: string[] };
      const uri = client?.redirect_uris?.[0];
      return uri ? Number(new URL(uri).port) || 0 : 0;
    } catch {
      return 0;
    }
  }
}

const keyOf = (workspace: string, server: string) => `${workspace}\n${server}`;

/** A loopback listener on `port`, or on a port of its own when that one is taken. */
function listen(port: number): Promise<http.Server> {
  const attempt = (p: number) =>
    new Promise<http.Server>((resolve, reject) => {
      const server = http.createServer();
      server.once('error', reject);
      server.listen(p, '127.0.0.1', () => {
        server.off('error', reject);
        resolve(server);
      });
    });
  return port === 0 ? attempt(0) : attempt(port).catch(() => attempt(0));
}

function startFailure(target: SignInTarget, error: unknown): string {
  const cause = (error as { cause?: { code?: string } }).cause?.code;
  // fetch's "fetch failed" says nothing: its cause says what (ECONNREFUSED, ENOTFOUND, a certificate).
  const message = (error as Error).message || (error as { errorCode?: string }).errorCode || String(error);
  const detail = cause ? `${message} (${cause})` : message;
  return `the sign-in to MCP server "${target.server}" could not start: ${detail}`;
}

const DONE_TEXT = 'You can close this tab and go back to MAESTRO.';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const page = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
  `<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></main></body></html>`;

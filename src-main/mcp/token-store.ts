// The tokens people give for MCP servers: `<dataDir>/mcp-tokens.json` (atomic writes, 0600), one entry per
// workspace + server, each token sealed by the same SecretBox as the LLM profiles' keys and bound to its owner, so a
// sealed value copied to another entry does not open. A file that cannot be read is reported, never overwritten.
// A server's credentials are either a token the person pasted or what an OAuth sign-in left (the client the app
// registered with the server's authorization server, and the tokens it issued, sealed as one): the later one given
// replaces the other.
import path from 'node:path';
import { z } from 'zod';
import { CodedError } from '../../src-shared/errors';
import { type SecretBox, SecretBoxError } from '../llm/secret-box';
import { type ConfigFileError, JsonFileStore } from '../workspace/json-file';

export const MCP_TOKENS_FILE = 'mcp-tokens.json';

const Sealed = z.strictObject({ box: z.string().min(1), sealed: z.string().min(1) });
type Sealed = z.infer<typeof Sealed>;

const Entry = z.strictObject({
  workspace: z.string().min(1),
  server: z.string().min(1),
  token: Sealed.nullable(),
  /** What an OAuth sign-in left: the registered client, and the tokens once issued (sealed JSON, never in clear). */
  oauth: z.strictObject({ client: Sealed.nullable(), tokens: Sealed.nullable() }).optional(),
  /** The server answered 401 the last time a job connected (with this token, or without one). */
  rejected: z.boolean(),
});
type Entry = z.infer<typeof Entry>;

const TokensFile = z.strictObject({ version: z.literal(1), entries: z.array(Entry) });
type TokensFile = z.infer<typeof TokensFile>;

/** mcp-tokens.json cannot be read or written: the one ConfigFileError, by the name its callers catch. */

/** A saved token that cannot be opened; the message names the server and the reason, never the token. */
export class McpTokenError extends CodedError {
  readonly code = 'mcp_token_unusable';
  constructor(server: string, reason: string) {
    super(`the saved token of MCP server "${server}" cannot be used: ${reason}; save it again`);
  }
}

export interface TokenState {
  hasToken: boolean;
  rejected: boolean;
  /** The credentials are an OAuth sign-in's tokens (not a pasted token). */
  signedIn?: true;
}

/** OAuth tokens as a sign-in left them, with when the access token expires (ms since the epoch; absent: not said). */
export interface StoredOAuthTokens {
  access_token: string;
  token_type: string;
  refresh_token?: string;
  scope?: string;
  expiresAt?: number;
  /** The authorization server that issued them (the SDK presents a refresh token to no other). */
  issuer?: string;
  /** When they were saved (ms since the epoch). */
  savedAt?: number;
}

/** What a sealed token is bound to: it opens only for this workspace and server (and for what it is). */
const sealContext = (workspace: string, server: string, what = '') => `mcp${what}\n${workspace}\n${server}`;

export class McpTokenStore {
  private readonly json: JsonFileStore<TokensFile>;
  private saves = 0;

  constructor(
    readonly file: string,
    private readonly box: SecretBox,
  ) {
    this.json = new JsonFileStore(file, TokensFile, { version: 1, entries: [] }, 'MCP tokens file');
  }

  static inDataDir(dataDir: string, box: SecretBox): McpTokenStore {
    return new McpTokenStore(path.join(dataDir, MCP_TOKENS_FILE), box);
  }

  /** Why the file could not be read, when it could not. */
  get error(): ConfigFileError | null {
    return this.json.error;
  }

  /** Grows with every token saved: a job that parked on an older count may have missed the one it waited for. */
  get savedCount(): number {
    return this.saves;
  }

  state(workspace: string, server: string): TokenState {
    const entry = this.find(workspace, server);
    const signedIn = Boolean(entry?.oauth?.tokens);
    return {
      hasToken: Boolean(entry?.token) || signedIn,
      rejected: entry?.rejected ?? false,
      ...(signedIn ? { signedIn: true as const } : {}),
    };
  }

  /** The pasted token in clear, or null when none is saved. Throws McpTokenError when it cannot be opened. */
  open(workspace: string, server: string): string | null {
    const token = this.find(workspace, server)?.token;
    return token ? this.unseal(token, workspace, server) : null;
  }

  /** Saves (replaces) the token, and ends a sign-in's tokens; a saved token is not known to be rejected yet. */
  save(workspace: string, server: string, token: string): void {
    this.json.assertWritable();
    const client = this.find(workspace, server)?.oauth?.client ?? null;
    this.put({
      workspace,
      server,
      token: this.seal(token, workspace, server),
      ...(client ? { oauth: { client, tokens: null } } : {}),
      rejected: false,
    });
    this.saves++;
  }

  /** The OAuth client the app registered for this server (JSON as the SDK gave it), or undefined. */
  oauthClient(workspace: string, server: string): Record<string, unknown> | undefined {
    const client = this.find(workspace, server)?.oauth?.client;
    return client ? JSON.parse(this.unseal(client, workspace, server, '-oauth-client')) : undefined;
  }

  saveOAuthClient(workspace: string, server: string, client: Record<string, unknown>): void {
    this.json.assertWritable();
    const entry = this.find(workspace, server);
    this.put({
      workspace,
      server,
      token: entry?.token ?? null,
      // A sign-in started again registers afresh; the tokens in force stay until it ends (abandoned, they still work).
      oauth: {
        client: this.seal(JSON.stringify(client), workspace, server, '-oauth-client'),
        tokens: entry?.oauth?.tokens ?? null,
      },
      rejected: entry?.rejected ?? false,
    });
  }

  /** The tokens of the last sign-in, or undefined. Throws McpTokenError when they cannot be opened. */
  oauthTokens(workspace: string, server: string): StoredOAuthTokens | undefined {
    const tokens = this.find(workspace, server)?.oauth?.tokens;
    return tokens ? JSON.parse(this.unseal(tokens, workspace, server, '-oauth-tokens')) : undefined;
  }

  /**
   * Saves what a sign-in (or a refresh) issued, in place of a pasted token. Counts as a token saved when `signIn`
   * (a person signed in: parked jobs go on); a refresh keeps the count, as nothing a job waits for changed.
   */
  saveOAuthTokens(workspace: string, server: string, tokens: StoredOAuthTokens, signIn: boolean): void {
    this.json.assertWritable();
    const client = this.find(workspace, server)?.oauth?.client ?? null;
    const sealed = this.seal(JSON.stringify(tokens), workspace, server, '-oauth-tokens');
    this.put({ workspace, server, token: null, oauth: { client, tokens: sealed }, rejected: false });
    if (signIn) this.saves++;
  }

  /** The server's authorization server no longer takes the sign-in's tokens (`all`: nor the registered client). */
  dropOAuth(workspace: string, server: string, what: 'tokens' | 'all'): void {
    const entry = this.find(workspace, server);
    if (!entry?.oauth || this.json.error) return;
    const client = what === 'all' ? null : entry.oauth.client;
    this.put({ ...entry, oauth: { client, tokens: null } });
  }

  private seal(text: string, workspace: string, server: string, what = ''): Sealed {
    return { box: this.box.kind, sealed: this.box.seal(text, sealContext(workspace, server, what)) };
  }

  private unseal(sealed: Sealed, workspace: string, server: string, what = ''): string {
    if (sealed.box !== this.box.kind) {
      throw new McpTokenError(server, `it was sealed by "${sealed.box}", and this app uses ${this.box.where}`);
    }
    try {
      return this.box.open(sealed.sealed, sealContext(workspace, server, what));
    } catch (error) {
      throw new McpTokenError(server, error instanceof SecretBoxError ? error.message : `${this.box.where} refused`);
    }
  }

  /** Drops the server's entry (its token and whether it was refused): the server was removed from its file. */
  forget(workspace: string, server: string): void {
    if (!this.find(workspace, server)) return;
    this.json.assertWritable();
    this.json.write({
      version: 1,
      entries: this.json.data.entries.filter((e) => !(e.workspace === workspace && e.server === server)),
    });
  }

  /** Remembers that the server refused the job's credentials, so the app can say which token to give again. */
  markRejected(workspace: string, server: string): void {
    const entry = this.find(workspace, server);
    if (this.json.error || entry?.rejected) return;
    this.put({ ...(entry ?? { workspace, server, token: null }), rejected: true });
  }

  /** The server took the job's credentials: a rejection remembered before is over. */
  markAccepted(workspace: string, server: string): void {
    const entry = this.find(workspace, server);
    if (this.json.error || !entry?.rejected) return;
    this.put({ ...entry, rejected: false });
  }

  private find(workspace: string, server: string): Entry | undefined {
    return this.json.data.entries.find((e) => e.workspace === workspace && e.server === server);
  }

  private put(entry: Entry): void {
    const others = this.json.data.entries.filter(
      (e) => !(e.workspace === entry.workspace && e.server === entry.server),
    );
    this.json.write({ version: 1, entries: [...others, entry] });
  }
}

// The tokens people give for MCP servers: `<dataDir>/mcp-tokens.json` (atomic writes, 0600), one entry per
// workspace + server, each token sealed by the same SecretBox as the LLM profiles' keys and bound to its owner, so a
// sealed value copied to another entry does not open. A file that cannot be read is reported, never overwritten.
import path from 'node:path';
import { z } from 'zod';
import { CodedError } from '../../src-shared/errors';
import { type SecretBox, SecretBoxError } from '../llm/secret-box';
import { type ConfigFileError, JsonFileStore } from '../workspace/json-file';

export const MCP_TOKENS_FILE = 'mcp-tokens.json';

const Entry = z.strictObject({
  workspace: z.string().min(1),
  server: z.string().min(1),
  token: z.strictObject({ box: z.string().min(1), sealed: z.string().min(1) }).nullable(),
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
}

/** What a sealed token is bound to: it opens only for this workspace and server. */
const sealContext = (workspace: string, server: string) => `mcp\n${workspace}\n${server}`;

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
    return { hasToken: Boolean(entry?.token), rejected: entry?.rejected ?? false };
  }

  /** The token in clear, or null when none is saved. Throws McpTokenError when it cannot be opened. */
  open(workspace: string, server: string): string | null {
    const token = this.find(workspace, server)?.token;
    if (!token) return null;
    if (token.box !== this.box.kind) {
      throw new McpTokenError(server, `it was sealed by "${token.box}", and this app uses ${this.box.where}`);
    }
    try {
      return this.box.open(token.sealed, sealContext(workspace, server));
    } catch (error) {
      throw new McpTokenError(server, error instanceof SecretBoxError ? error.message : `${this.box.where} refused`);
    }
  }

  /** Saves (replaces) the token; a saved token is not known to be rejected yet. */
  save(workspace: string, server: string, token: string): void {
    this.json.assertWritable();
    const sealed = { box: this.box.kind, sealed: this.box.seal(token, sealContext(workspace, server)) };
    this.put({ workspace, server, token: sealed, rejected: false });
    this.saves++;
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
    if (this.json.error || this.find(workspace, server)?.rejected) return;
    this.put({ workspace, server, token: this.find(workspace, server)?.token ?? null, rejected: true });
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

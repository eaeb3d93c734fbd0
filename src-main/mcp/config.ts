// The MCP servers of a workspace: `<workspace>/.maestro/mcp.json`, in our shape or in the shapes Claude Code
// (`mcpServers`, `"type": "stdio" | "http" | "sse"`), Cursor (`mcpServers`) and VS Code (`servers`, `inputs`) write.
// Read fresh for every job, in the version a person accepted; errors name the file and the field. Format: README.md.
import path from 'node:path';
import { z } from 'zod';
import { MCP_SERVER_NAME } from '../../src-shared/contract';
import { describeIssues } from '../../src-shared/issues';
import { onDisk, SETTINGS_FILES, type SettingsText } from '../workspace/accepted-settings';
import { ConfigFileError, parseConfigJson } from '../workspace/json-file';
import { expandValue, type TokenSpot, VariableError } from './config-variables';

export const MCP_FILE = SETTINGS_FILES.mcp;
export const mcpFile = (workspacePath: string) => path.join(workspacePath, MCP_FILE);

const SERVER_NAME_RULE = 'must be 1–32 letters, digits, "_" or "-", starting with a letter or digit';

const EnvName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name');
const HeaderName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'must be an HTTP header name');
const Ms = z.number().int('must be whole milliseconds').min(100, 'must be at least 100 ms').max(86_400_000);

/** How long a server may take: to start and answer `initialize`, to answer a call (progress resets it), in all. */
export interface McpTimeouts {
  startupMs: number;
  toolMs: number;
  toolMaxMs: number;
}
export const DEFAULT_TIMEOUTS: McpTimeouts = { startupMs: 10_000, toolMs: 60_000, toolMaxMs: 30 * 60_000 };

/** The keys every entry may have: the transport (Claude Code, VS Code), off, and its timeouts. */
const Common = {
  type: z.enum(['stdio', 'http', 'streamable-http', 'streamableHttp', 'sse']).optional(),
  disabled: z.boolean().default(false),
  startupTimeoutMs: Ms.optional(),
  toolTimeoutMs: Ms.optional(),
  toolMaxMs: Ms.optional(),
};

const StdioServerFile = z.strictObject({
  ...Common,
  command: z.string().min(1, 'must not be empty'),
  args: z.array(z.string()).default([]),
  env: z.record(EnvName, z.string()).default({}),
  /** Relative to the workspace folder. */
  cwd: z.string().min(1, 'must not be empty').optional(),
  /** The token reaches a stdio server in this environment variable. */
  auth: z.strictObject({ required: z.boolean().default(true), env: EnvName }).optional(),
  /** Hosts the server may reach from the OS sandbox it runs in (none by default). */
  network: z.array(z.string().trim().min(1, 'a host must not be empty')).default([]),
  /**
   * Folders the server may read although the OS sandbox hides them: its own install when it lives in the home folder
   * outside the toolchain folders, or in /tmp (absolute, or relative to the workspace folder).
   */
  readable: z.array(z.string().trim().min(1, 'a folder must not be empty')).default([]),
});

const HttpServerFile = z.strictObject({
  ...Common,
  url: z.string(),
  headers: z.record(HeaderName, z.string()).default({}),
  /** The token reaches an HTTP server in this header (`Authorization: Bearer <token>`, other headers: the token). */
  auth: z.strictObject({ required: z.boolean().default(true), header: HeaderName.default('Authorization') }).optional(),
});

/** VS Code's `inputs`: what it would prompt for; here a referenced one is the server's saved token. */
const Input = z.looseObject({ id: z.string().min(1), type: z.string().optional(), description: z.string().optional() });

const McpFileSchema = z
  .strictObject({
    mcpServers: z.record(z.string(), z.unknown()).optional(),
    servers: z.record(z.string(), z.unknown()).optional(),
    inputs: z.array(Input).optional(),
  })
  .refine((f) => (f.mcpServers === undefined) !== (f.servers === undefined), {
    message: 'needs one of mcpServers (Claude Code, Cursor, MAESTRO) or servers (VS Code)',
  });

interface ServerBase {
  name: string;
  /** Whether a job must not start without a token the user saved. */
  authRequired: boolean;
  /** false: `"disabled": true` in the file; Settings can turn it back on (servers.ts). */
  enabled: boolean;
  /** What the file sets; the rest are the app's defaults. */
  timeouts: Partial<McpTimeouts>;
  /** What goes around the token in its header or variable (`Bearer ` before it in `Authorization`). */
  tokenFormat: { before: string; after: string };
}

export interface StdioServerConfig extends ServerBase {
  transport: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Absolute: resolved against the workspace folder. */
  cwd: string;
  /** The workspace folder: the one folder the server may write in the OS sandbox (but its `.maestro/`). */
  workspacePath: string;
  /** Hosts it may reach from the sandbox. */
  network: string[];
  /** Absolute folders it may read in the sandbox besides what every sandboxed process sees. */
  readable: string[];
  /** The environment variable that carries the token; null: this server takes none. */
  tokenEnv: string | null;
}

export interface HttpServerConfig extends ServerBase {
  /** Streamable HTTP, or the older HTTP+SSE transport (`"type": "sse"`). */
  transport: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
  /** The header that carries the token (a server that answers 401 gets it in `Authorization` when none is named). */
  tokenHeader: string;
}

export type McpServerConfig = StdioServerConfig | HttpServerConfig;

/** A server entry at fault: the message and the field name it as `<servers key>.<name>…`. */
const badServer = (file: string, at: string[], why: string) =>
  new ConfigFileError(file, `${at.join('.')}: ${why}`, { field: at.join('.') });
const badFields = (file: string, issues: readonly z.core.$ZodIssue[], at: string[]) =>
  new ConfigFileError(file, describeIssues(issues, { whole: '(top level)', under: at }), {
    field: [...at, ...(issues[0]?.path ?? [])].map(String).join('.'),
  });

const isHttpUrl = (u: string) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol);

/** Parses an mcp.json's text; servers sorted by name. `file` is used in error messages only. */
export function parseMcpConfig(text: string, file: string, workspacePath: string): McpServerConfig[] {
  const parsed = parseConfigJson(text, file, McpFileSchema);
  const key = parsed.servers ? 'servers' : 'mcpServers';
  const entries = parsed.servers ?? parsed.mcpServers ?? {};
  const inputs = new Set((parsed.inputs ?? []).map((i) => i.id));
  const servers: McpServerConfig[] = [];
  for (const [name, entry] of Object.entries(entries)) {
    const at = [key, name];
    if (!MCP_SERVER_NAME.test(name)) throw badServer(file, at, `the name ${SERVER_NAME_RULE}`);
    try {
      const server = parseServer(entry, { name, at, file, workspacePath: path.resolve(workspacePath) });
      checkInputs(server.placeholder, inputs, at.join('.'));
      servers.push(server.config);
    } catch (error) {
      if (error instanceof VariableError) throw new ConfigFileError(file, error.message, { field: at.join('.') });
      throw error;
    }
  }
  return servers.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

interface EntryContext {
  name: string;
  at: string[];
  file: string;
  workspacePath: string;
}

function transportOf(entry: object, ctx: EntryContext): 'stdio' | 'http' | 'sse' {
  const type = 'type' in entry ? entry.type : undefined;
  if ('envFile' in entry) {
    throw badServer(ctx.file, [...ctx.at, 'envFile'], 'is not supported: it would be read without review; use env');
  }
  if ('url' in entry && 'command' in entry) {
    throw badServer(ctx.file, ctx.at, 'give either command (stdio) or url (streamable HTTP), not both');
  }
  if (type === 'sse') return 'sse';
  if (type === 'stdio' || (type === undefined && 'command' in entry)) return 'stdio';
  if (type !== undefined || 'url' in entry) return 'http';
  throw badServer(ctx.file, ctx.at, 'needs either command (stdio) or url (streamable HTTP)');
}

function parseServer(entry: unknown, ctx: EntryContext): { config: McpServerConfig; placeholder: string | null } {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    throw badServer(ctx.file, ctx.at, 'needs either command (stdio) or url (streamable HTTP)');
  }
  const transport = transportOf(entry, ctx);
  return transport === 'stdio' ? parseStdio(entry, ctx) : parseHttp(entry, ctx, transport);
}

const timeoutsOf = (f: { startupTimeoutMs?: number; toolTimeoutMs?: number; toolMaxMs?: number }) => ({
  ...(f.startupTimeoutMs !== undefined ? { startupMs: f.startupTimeoutMs } : {}),
  ...(f.toolTimeoutMs !== undefined ? { toolMs: f.toolTimeoutMs } : {}),
  ...(f.toolMaxMs !== undefined ? { toolMaxMs: f.toolMaxMs } : {}),
});

/**
 * An env or headers map with its variables filled in, and the one entry that holds a token placeholder (taken out of
 * the map: the token goes there at connect time). `auth`: the entry also names where its token goes, the other way.
 */
function expandSecrets(
  map: Record<string, string>,
  field: 'env' | 'headers',
  ctx: EntryContext,
  auth: boolean,
): { values: Record<string, string>; spot: { name: string; token: TokenSpot } | null } {
  const values: Record<string, string> = {};
  let spot: { name: string; token: TokenSpot } | null = null;
  for (const [name, value] of Object.entries(map)) {
    const at = `${ctx.at.join('.')}.${field}.${name}`;
    const expanded = expandValue(value, { workspacePath: ctx.workspacePath, at }, true);
    if (!expanded.token) values[name] = expanded.value;
    else if (spot) throw new VariableError(`${at}: MAESTRO keeps one token per server (${spot.name} has one)`);
    else spot = { name, token: expanded.token };
  }
  if (spot && auth) throw new VariableError(`${ctx.at.join('.')}: give either auth or a token placeholder in ${field}`);
  return { values, spot };
}

function parseStdio(entry: object, ctx: EntryContext): { config: StdioServerConfig; placeholder: string | null } {
  const stdio = StdioServerFile.safeParse(entry);
  if (!stdio.success) throw badFields(ctx.file, stdio.error.issues, ctx.at);
  const f = stdio.data;
  if (f.type !== undefined && f.type !== 'stdio') throw badServer(ctx.file, [...ctx.at, 'type'], 'must be stdio');
  const plain = (value: string, field: string) =>
    expandValue(value, { workspacePath: ctx.workspacePath, at: `${ctx.at.join('.')}.${field}` }, false).value;
  const { values: env, spot } = expandSecrets(f.env, 'env', ctx, f.auth !== undefined);
  return {
    placeholder: spot?.token.placeholder ?? null,
    config: {
      name: ctx.name,
      transport: 'stdio',
      command: plain(f.command, 'command'),
      args: f.args.map((a, i) => plain(a, `args.${i}`)),
      env,
      cwd: path.resolve(ctx.workspacePath, f.cwd ? plain(f.cwd, 'cwd') : '.'),
      workspacePath: ctx.workspacePath,
      network: f.network,
      readable: f.readable.map((r, i) => path.resolve(ctx.workspacePath, plain(r, `readable.${i}`))),
      authRequired: f.auth?.required ?? spot !== null,
      enabled: !f.disabled,
      timeouts: timeoutsOf(f),
      tokenEnv: f.auth?.env ?? spot?.name ?? null,
      tokenFormat: { before: spot?.token.before ?? '', after: spot?.token.after ?? '' },
    },
  };
}

function parseHttp(
  entry: object,
  ctx: EntryContext,
  transport: 'http' | 'sse',
): { config: HttpServerConfig; placeholder: string | null } {
  const http = HttpServerFile.safeParse(entry);
  if (!http.success) throw badFields(ctx.file, http.error.issues, ctx.at);
  const f = http.data;
  const url = expandValue(f.url, { workspacePath: ctx.workspacePath, at: `${ctx.at.join('.')}.url` }, false).value;
  if (!isHttpUrl(url)) throw badServer(ctx.file, [...ctx.at, 'url'], 'must be an http:// or https:// URL');
  const { values: headers, spot } = expandSecrets(f.headers, 'headers', ctx, f.auth !== undefined);
  const tokenHeader = spot?.name ?? f.auth?.header ?? 'Authorization';
  const bearer = tokenHeader.toLowerCase() === 'authorization' ? 'Bearer ' : '';
  return {
    placeholder: spot?.token.placeholder ?? null,
    config: {
      name: ctx.name,
      transport,
      url,
      headers,
      authRequired: f.auth?.required ?? spot !== null,
      enabled: !f.disabled,
      timeouts: timeoutsOf(f),
      tokenHeader,
      tokenFormat: spot ? { before: spot.token.before, after: spot.token.after } : { before: bearer, after: '' },
    },
  };
}

/** A VS Code `${input:id}` must name one of the file's `inputs`. */
function checkInputs(placeholder: string | null, inputs: ReadonlySet<string>, at: string): void {
  const id = placeholder?.match(/^\$\{input:(.+)\}$/)?.[1];
  if (id !== undefined && !inputs.has(id)) {
    throw new VariableError(`${at}: ${placeholder} names no entry of inputs`);
  }
}

/**
 * The workspace's MCP servers: none when it has no mcp.json; a broken file throws ConfigFileError. `read` gives the
 * file's text: the app passes the accepted version's, so a server the agent added is not started.
 */
export function loadMcpConfig(workspacePath: string, read: SettingsText = onDisk): McpServerConfig[] {
  const file = mcpFile(workspacePath);
  const text = read(workspacePath, MCP_FILE);
  return text === null ? [] : parseMcpConfig(text, file, workspacePath);
}

/** Whether the server can be given a token at all (an HTTP server always can: it may answer 401). */
export const takesToken = (server: McpServerConfig): boolean =>
  server.transport !== 'stdio' || server.tokenEnv !== null;

/** The token as its header or variable carries it. */
export const formatToken = (server: McpServerConfig, token: string): string =>
  `${server.tokenFormat.before}${token}${server.tokenFormat.after}`;

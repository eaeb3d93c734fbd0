// The MCP servers of a workspace: `<workspace>/.maestro/mcp.json`, a `mcpServers` map of stdio servers (`command`)
// and streamable HTTP servers (`url`). Read fresh for every job, in the version a person accepted; errors name the file
// and the field. Format: README.md.
import path from 'node:path';
import { z } from 'zod';
import { MCP_SERVER_NAME } from '../../src-shared/contract';
import { onDisk, SETTINGS_FILES, type SettingsText } from '../workspace/accepted-settings';
import { ConfigFileError, describeIssues, parseConfigJson } from '../workspace/json-file';

export const MCP_FILE = SETTINGS_FILES.mcp;
export const mcpFile = (workspacePath: string) => path.join(workspacePath, MCP_FILE);

const SERVER_NAME_RULE = 'must be 1–32 letters, digits, "_" or "-", starting with a letter or digit';

const EnvName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name');
const HeaderName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'must be an HTTP header name');

const StdioServerFile = z.strictObject({
  command: z.string().min(1, 'must not be empty'),
  args: z.array(z.string()).default([]),
  env: z.record(EnvName, z.string()).default({}),
  /** Relative to the workspace folder. */
  cwd: z.string().min(1, 'must not be empty').optional(),
  /** The token reaches a stdio server in this environment variable. */
  auth: z.strictObject({ required: z.boolean().default(true), env: EnvName }).optional(),
  /** Hosts the server may reach from the OS sandbox it runs in (none by default). */
  network: z.array(z.string().trim().min(1, 'a host must not be empty')).default([]),
});

const HttpServerFile = z.strictObject({
  url: z
    .string()
    .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), 'must be an http:// or https:// URL'),
  headers: z.record(HeaderName, z.string()).default({}),
  /** The token reaches an HTTP server in this header (`Authorization: Bearer <token>`, other headers: the token). */
  auth: z.strictObject({ required: z.boolean().default(true), header: HeaderName.default('Authorization') }).optional(),
});

const McpFileSchema = z.strictObject({ mcpServers: z.record(z.string(), z.unknown()) });

interface ServerBase {
  name: string;
  /** Whether a job must not start without a token the user saved. */
  authRequired: boolean;
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
  /** The environment variable that carries the token; null: this server takes none. */
  tokenEnv: string | null;
}

export interface HttpServerConfig extends ServerBase {
  transport: 'http';
  url: string;
  headers: Record<string, string>;
  /** The header that carries the token (a server that answers 401 gets it in `Authorization` when none is named). */
  tokenHeader: string;
}

export type McpServerConfig = StdioServerConfig | HttpServerConfig;

/** An mcp.json that cannot be used: the one ConfigFileError, by the name its callers catch. */

/** A server entry at fault: the message and the field name it as `mcpServers.<name>`. */
const badServer = (file: string, at: string[], why: string) =>
  new ConfigFileError(file, `${at.join('.')}: ${why}`, { field: at.join('.') });
const badFields = (file: string, issues: readonly z.core.$ZodIssue[], at: string[]) =>
  new ConfigFileError(file, describeIssues(issues, at), {
    field: [...at, ...(issues[0]?.path ?? [])].map(String).join('.'),
  });

/** Parses an mcp.json's text; servers sorted by name. `file` is used in error messages only. */
export function parseMcpConfig(text: string, file: string, workspacePath: string): McpServerConfig[] {
  const { mcpServers } = parseConfigJson(text, file, McpFileSchema);
  const servers: McpServerConfig[] = [];
  for (const [name, entry] of Object.entries(mcpServers)) {
    const at = ['mcpServers', name];
    if (!MCP_SERVER_NAME.test(name)) throw badServer(file, at, `the name ${SERVER_NAME_RULE}`);
    const isObject = typeof entry === 'object' && entry !== null && !Array.isArray(entry);
    if (isObject && 'url' in entry && 'command' in entry) {
      throw badServer(file, at, 'give either command (stdio) or url (streamable HTTP), not both');
    }
    if (isObject && 'url' in entry) {
      const http = HttpServerFile.safeParse(entry);
      if (!http.success) throw badFields(file, http.error.issues, at);
      const { url, headers, auth } = http.data;
      servers.push({
        name,
        transport: 'http',
        url,
        headers,
        authRequired: auth?.required ?? false,
        tokenHeader: auth?.header ?? 'Authorization',
      });
    } else if (isObject && 'command' in entry) {
      const stdio = StdioServerFile.safeParse(entry);
      if (!stdio.success) throw badFields(file, stdio.error.issues, at);
      const { command, args, env, cwd, auth, network } = stdio.data;
      servers.push({
        name,
        transport: 'stdio',
        command,
        args,
        env,
        cwd: path.resolve(workspacePath, cwd ?? '.'),
        workspacePath: path.resolve(workspacePath),
        network,
        authRequired: auth?.required ?? false,
        tokenEnv: auth?.env ?? null,
      });
    } else {
      throw badServer(file, at, 'needs either command (stdio) or url (streamable HTTP)');
    }
  }
  return servers.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
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
export const takesToken = (server: McpServerConfig): boolean => server.transport === 'http' || server.tokenEnv !== null;

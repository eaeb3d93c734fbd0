// A workspace's MCP servers with their token status (never a token) and how each is doing, saving a token for one of
// them, turning one off or on (a person's choice, kept with the accepted settings), and checking one now.
import { z } from 'zod';
import { Job } from '../entities';
import { op } from './operation';

/** An MCP server's name in a workspace's mcp.json: part of its tools' names and of its token's key. */
export const MCP_SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;

const ServerName = z.string().regex(MCP_SERVER_NAME, "must be an MCP server name of the workspace's mcp.json");

/** An MCP server of a workspace as every output shows it: never its token, only the token's status. */
export const McpServerView = z.object({
  name: z.string(),
  transport: z.enum(['stdio', 'http', 'sse']),
  authRequired: z.boolean(),
  /** Whether a token can be saved for it (an HTTP server, or a stdio server with `auth.env`). */
  takesToken: z.boolean(),
  /** `rejected`: the server answered 401 the last time; `unreadable`: the saved token cannot be opened. */
  token: z.enum(['none', 'missing', 'saved', 'rejected', 'unreadable']),
  /** Off: jobs do not start it (`"disabled": true` in the file, or turned off in Settings). */
  enabled: z.boolean(),
  /** How it did the last time a job (or a check) started it in this run of the app; `unknown`: not since. */
  status: z.enum(['unknown', 'connected', 'failed']),
  /** Its tools as the model sees them (`mcp__<server>__<tool>`), when it last connected. */
  tools: z.array(z.string()),
  /** Why it last failed (start, crash, listing), naming it; null when it did not. */
  lastError: z.string().nullable(),
  /** When `status` was last set (ISO 8601); null: never. */
  checkedAt: z.string().nullable(),
});
export type McpServerView = z.infer<typeof McpServerView>;

/** A token a person gives for a server or an agent, alone (no "Bearer "). */
export const SecretToken = z
  .string()
  .min(1, 'must not be empty')
  .max(8192)
  .refine(
    (k) => [...k].every((c) => c.charCodeAt(0) > 0x20 && c.charCodeAt(0) !== 0x7f),
    'must not contain spaces or control characters (give the token alone, without "Bearer")',
  );

export const mcpOperations = {
  /** The MCP servers of a workspace (its `.maestro/mcp.json`) and whether each has a token; `error`: a broken file. */
  listMcpServers: op({
    method: 'GET',
    path: '/mcp/servers/:workspacePath',
    status: 200,
    input: z.object({ workspacePath: z.string().min(1).max(4096) }).strict(),
    output: z.object({ servers: z.array(McpServerView), error: z.string().nullable() }),
  }),
  /** Saves (replaces) the token of a workspace's MCP server; jobs parked for it are queued again (P2.16). */
  saveMcpToken: op({
    method: 'POST',
    path: '/mcp/tokens',
    status: 200,
    input: z
      .object({
        workspacePath: z.string().min(1).max(4096),
        server: ServerName,
        /** The token alone (no "Bearer "); it never appears in any output. */
        token: SecretToken,
      })
      .strict(),
    output: z.object({ server: McpServerView, resumed: z.array(Job) }),
  }),
  /** Turns a server off or on for the workspace's jobs from now on: a person's choice, so it applies without review. */
  setMcpServerEnabled: op({
    method: 'POST',
    path: '/mcp/enabled',
    status: 200,
    input: z.object({ workspacePath: z.string().min(1).max(4096), server: ServerName, enabled: z.boolean() }).strict(),
    output: z.object({ server: McpServerView }),
  }),
  /** Starts the server now, lists its tools and stops it again: its status, tools and error as a job would find them. */
  checkMcpServer: op({
    method: 'POST',
    path: '/mcp/check',
    status: 200,
    input: z.object({ workspacePath: z.string().min(1).max(4096), server: ServerName }).strict(),
    output: z.object({ server: McpServerView }),
  }),
};

// A workspace's MCP servers with their token status (never a token), and saving a token for one of them.
import { z } from 'zod';
import { Job } from '../entities';
import { op } from './operation';

/** An MCP server's name in a workspace's mcp.json: part of its tools' names and of its token's key. */
export const MCP_SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;

/** An MCP server of a workspace as every output shows it: never its token, only the token's status. */
export const McpServerView = z.object({
  name: z.string(),
  transport: z.enum(['stdio', 'http']),
  authRequired: z.boolean(),
  /** Whether a token can be saved for it (an HTTP server, or a stdio server with `auth.env`). */
  takesToken: z.boolean(),
  /** `rejected`: the server answered 401 the last time; `unreadable`: the saved token cannot be opened. */
  token: z.enum(['none', 'missing', 'saved', 'rejected', 'unreadable']),
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
        server: z.string().regex(MCP_SERVER_NAME, "must be an MCP server name of the workspace's mcp.json"),
        /** The token alone (no "Bearer "); it never appears in any output. */
        token: SecretToken,
      })
      .strict(),
    output: z.object({ server: McpServerView, resumed: z.array(Job) }),
  }),
};

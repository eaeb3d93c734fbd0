// The MCP servers of one job (spec §2 K): the token check before anything starts, then one connection per server
// of the workspace, their tools as the engine's tools, and the end of it all when the job ends (close) or is
// cancelled (kill: the job's signal).
import type { SandboxChoice } from '../tools/os-sandbox';
import { fail } from '../tools/outcome';
import type { AnyToolDef, ToolOutcome } from '../tools/types';
import type { McpServerConfig } from './config';
import { McpAuthError, McpConnectError, McpConnection } from './connection';
import { assignToolNames, type ListedTool, mcpToolDef, toolResult } from './mcp-tools';

/** What a job gets from its workspace's MCP servers before its LLM client is made. */
export type McpOpenResult =
  | { kind: 'ready'; session: McpSession }
  /**
   * A server needs a token the user has not given, or refused the one given: the job parks (P2.14). `savedCount`:
   * the tokens saved before the check, for tokenSavedSince.
   */
  | { kind: 'auth_required'; server: string; message: string; savedCount: number };

/** Opens the MCP servers of a job's workspace; the Worker calls it once per job, before the engine runs. */
export interface McpJobServers {
  open(workspacePath: string, signal: AbortSignal): Promise<McpOpenResult>;
  /** Whether a token was saved after the check that answered `savedCount` (it may not have found the parked job). */
  tokenSavedSince(savedCount: number): boolean;
}

export interface SessionServer {
  config: McpServerConfig;
  token: string | null;
}

export interface SessionOptions {
  signal: AbortSignal;
  timeoutMs: number;
  clientVersion: string;
  /** The OS sandbox stdio servers run in (none: they run as the app's user). */
  sandbox?: SandboxChoice;
  /** Called when a server refused the credentials, or took them. */
  onAuth?: (server: string, accepted: boolean) => void;
}

/** missing: required and none saved · refused: a 401 to the saved token · asked: a 401 without a token. */
export function authRequiredMessage(server: string, why: 'missing' | 'refused' | 'asked'): string {
  const says = {
    missing: 'needs a token, and none is saved',
    refused: 'refused the saved token (HTTP 401)',
    asked: 'asks for a token (HTTP 401), and none is saved',
  }[why];
  return (
    `The MCP server "${server}" ${says}. The job waits until a token for "${server}" is saved ` +
    `(in the app, or POST /api/local/mcp/tokens), then goes on where it stopped.`
  );
}

export class McpSession {
  private constructor(
    readonly tools: readonly AnyToolDef[],
    private readonly connections: readonly McpConnection[],
    private readonly stopKilling: () => void,
  ) {}

  /** A session without servers: a workspace without mcp.json starts nothing. */
  static readonly empty = new McpSession([], [], () => {});

  /**
   * Connects every server (a refusal is an McpAuthError, anything else an McpConnectError; either way, what was
   * started is stopped again), lists their tools, and kills them all when `signal` aborts.
   */
  static async open(servers: readonly SessionServer[], options: SessionOptions): Promise<McpSession> {
    if (servers.length === 0) return McpSession.empty;
    const redact = redactor(servers.flatMap((s) => (s.token ? [s.token] : [])));
    const settled = await Promise.allSettled(
      servers.map((s) => McpConnection.open(s.config, { ...options, token: s.token })),
    );
    const connections = settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const kill = () => {
      for (const c of connections) c.kill();
    };
    options.signal.addEventListener('abort', kill, { once: true });
    const stopKilling = () => options.signal.removeEventListener('abort', kill);
    try {
      if (options.signal.aborted) throw new Error(`cancelled while connecting: ${String(options.signal.reason)}`);
      const refused = settled.flatMap((r, i) =>
        r.status === 'rejected' && r.reason instanceof McpAuthError ? [servers[i] as SessionServer] : [],
      );
      for (const [i, r] of settled.entries()) {
        const server = (servers[i] as SessionServer).config.name;
        if (r.status === 'fulfilled' || r.reason instanceof McpAuthError)
          options.onAuth?.(server, r.status === 'fulfilled');
      }
      const failed = settled.find((r) => r.status === 'rejected');
      if (refused.length > 0) throw new McpAuthError((refused[0] as SessionServer).config.name);
      if (failed) {
        const e = (failed as PromiseRejectedResult).reason as Error;
        throw e instanceof McpConnectError
          ? new McpConnectError(e.server, redact(e.reason), e.retryable)
          : new Error(redact(e.message));
      }

      const listed = await Promise.all(
        connections.map(async (c) => {
          try {
            return (await c.listTools(options.signal)).map((tool) => ({ connection: c, tool }));
          } catch (e) {
            throw new McpConnectError(c.server.name, redact(`listing its tools failed: ${(e as Error).message}`), true);
          }
        }),
      );
      const named = assignToolNames(listed.flat().map((t) => ({ ...t, server: t.connection.server.name })));
      const tools = named
        .map((t) => mcpToolDef(t.name, t.tool, (args, signal) => callTool(t.connection, t.tool, args, signal, redact)))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return new McpSession(tools, connections, stopKilling);
    } catch (error) {
      stopKilling();
      kill();
      throw error;
    }
  }

  /** Pids of the stdio servers still running (tests check that none outlives its job). */
  get pids(): number[] {
    return this.connections.flatMap((c) => (c.pid === null ? [] : [c.pid]));
  }

  /** Ends every connection at the end of the job. */
  async close(): Promise<void> {
    this.stopKilling();
    await Promise.all(this.connections.map((c) => c.close()));
  }
}

async function callTool(
  connection: McpConnection,
  tool: ListedTool,
  args: Record<string, unknown>,
  signal: AbortSignal,
  redact: (text: string) => string,
): Promise<ToolOutcome> {
  try {
    const result = toolResult(await connection.callTool(tool.name, args, signal));
    return { ...result, content: redact(result.content) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return fail(`MCP server "${connection.server.name}": ${redact(message)}`);
  }
}

/** Replaces every token in a text the model or a person will read (a server that echoes one, an error message). */
function redactor(tokens: readonly string[]): (text: string) => string {
  const secrets = tokens.filter((t) => t.length > 0);
  return (text) => secrets.reduce((out, t) => out.replaceAll(t, '[token]'), text);
}

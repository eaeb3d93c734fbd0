// The MCP servers of one job (spec §2 K): the token check before anything starts, then one connection per server
// of the workspace, their tools as the engine's tools, and the end of it all when the job ends (close) or is
// cancelled (kill: the job's signal). A server that cannot be started, or lists no tools, is left out with a warning
// naming it: the job goes on with the other servers' tools. Only a refused token stops it (the job parks).
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { SandboxChoice } from '../tools/os-sandbox';
import type { AnyToolDef } from '../tools/types';
import { DEFAULT_TIMEOUTS, type McpServerConfig, type McpTimeouts } from './config';
import { McpConnection } from './connection';
import { McpAuthError } from './connection-errors';
import { assignToolNames, mcpToolDef } from './mcp-tools';
import { type AskHooks, asksOf } from './server-asks';
import { ServerSlot } from './server-slot';

/** What a job gets from its workspace's MCP servers before its LLM client is made. */
export type McpOpenResult =
  | { kind: 'ready'; session: McpSession }
  /**
   * A server needs a token the user has not given, or refused the one given: the job parks (P2.14). `savedCount`:
   * the tokens saved before the check, for tokenSavedSince.
   */
  | { kind: 'auth_required'; server: string; message: string; savedCount: number };

/** What a job tells its workspace's servers besides its signal: where a warning about a server goes, who it is. */
export interface McpJobHooks extends AskHooks {
  /** A server is left out, crashed or could not be started again: the task shows `message`, naming it. */
  onWarning?(server: string, message: string): void;
  /** The job the servers work for: their questions go to its task, their sampling to its profile. */
  job?: { taskId: string; jobId: string; profile: string | null };
}

/** Opens the MCP servers of a job's workspace; the Worker calls it once per job, before the engine runs. */
export interface McpJobServers {
  /** `taskId`: a session kept from the task's parked job is taken over when its servers and tokens are the same. */
  open(workspacePath: string, signal: AbortSignal, hooks?: McpJobHooks, taskId?: string): Promise<McpOpenResult>;
  /** Keeps a parked job's session for its task's resume; false: not kept (the caller closes it). */
  keep?(taskId: string, session: McpSession): boolean;
  /** Whether a token was saved after the check that answered `savedCount` (it may not have found the parked job). */
  tokenSavedSince(savedCount: number): boolean;
}

export interface SessionServer {
  config: McpServerConfig;
  token: string | null;
  /** A sign-in's tokens, through the SDK's auth provider (an HTTP server signed in to with OAuth). */
  authProvider?: OAuthClientProvider;
}

/** How a server of a session is doing, for Settings: connected (with its tools' names), or why not. */
export type ServerState =
  | { status: 'connected'; tools?: string[]; restarts?: number }
  | { status: 'failed'; error: string };

export interface SessionOptions extends McpJobHooks {
  signal: AbortSignal;
  /** The app's defaults; a server's own timeouts in mcp.json win. */
  timeouts?: Partial<McpTimeouts>;
  clientVersion: string;
  /** The OS sandbox stdio servers run in (none: they run as the app's user). */
  sandbox?: SandboxChoice;
  /** The workspace folder, every server's one root. */
  workspacePath?: string;
  /** Called when a server refused the credentials (with its refusal), or took them (null). */
  onAuth?: (server: string, refusal: McpAuthError | null) => void;
  /** Called when a server connected, failed or came back. */
  onServer?: (server: string, state: ServerState) => void;
}

/**
 * missing: required and none saved · refused: a 401 to the saved token · forbidden: a 403 to it (a scope it lacks) ·
 * asked: a 401 without a token · expired: a sign-in that needs the person again · unreachable: its authorization
 * server could not renew it (`detail` says why).
 */
export function authRequiredMessage(
  server: string,
  why: 'missing' | 'refused' | 'forbidden' | 'asked' | 'expired' | 'unreachable',
  detail = '',
): string {
  const says = {
    missing: 'needs a token, and none is saved',
    refused: 'refused the saved token (HTTP 401)',
    forbidden: 'refused the saved token for what it was asked (HTTP 403: a scope it lacks)',
    asked: 'asks for a token (HTTP 401), and none is saved',
    expired: 'needs you to sign in again (the sign-in expired or was revoked)',
    unreachable: `could not renew its sign-in: its authorization server did not answer${detail ? ` (${detail})` : ''}`,
  }[why];
  return (
    `The MCP server "${server}" ${says}. The job waits until you sign in to "${server}" or save a token for it ` +
    `(in the app, POST /api/local/mcp/sign-in, or POST /api/local/mcp/tokens), then goes on where it stopped.`
  );
}

/** Why a server's refusal parks a job, from the credentials it was given. */
export function refusalMessage(error: McpAuthError, given: SessionServer | undefined): string {
  if (given?.authProvider) return authRequiredMessage(error.server, error.renewFailed ? 'unreachable' : 'expired');
  if (!given?.token) return authRequiredMessage(error.server, 'asked');
  return authRequiredMessage(error.server, error.status === 403 ? 'forbidden' : 'refused');
}

/** A server's timeouts: its own in mcp.json, else the app's, else the defaults. */
export const timeoutsOf = (config: McpServerConfig, app: Partial<McpTimeouts> = {}): McpTimeouts => ({
  ...DEFAULT_TIMEOUTS,
  ...app,
  ...config.timeouts,
});

/** The message of a server left out of a job. */
export const leftOutMessage = (server: string, reason: string) =>
  `MCP server "${server}" is not available in this job: ${reason}. Its tools are not offered; the job goes on without them.`;

export class McpSession {
  private constructor(
    readonly tools: readonly AnyToolDef[],
    private readonly slots: readonly ServerSlot[],
    /** The options the slots read: the job's signal and warnings, replaced when another job adopts the session. */
    private readonly live: SessionOptions,
    private readonly kill: () => void,
  ) {}

  /** A session without servers: a workspace without mcp.json starts nothing. */
  static readonly empty = new McpSession([], [], { signal: new AbortController().signal, clientVersion: '' }, () => {});

  private stopKilling(): void {
    this.live.signal.removeEventListener('abort', this.kill);
  }

  /**
   * The session passes to the next job of its task (a resume after a park): killed by that job's signal, its
   * warnings that job's, each server's restarts counted afresh. A server that died meanwhile starts again at its
   * first call, as within a job.
   */
  adopt(signal: AbortSignal, hooks: McpJobHooks): void {
    this.stopKilling();
    this.live.signal = signal;
    this.live.onWarning = hooks.onWarning;
    this.live.onElicit = hooks.onElicit;
    this.live.onSample = hooks.onSample;
    for (const slot of this.slots) slot.newJob();
    if (signal.aborted) this.kill();
    else signal.addEventListener('abort', this.kill, { once: true });
  }

  /**
   * The job that held the session parked and it is kept for the resume: a server that asks meanwhile (no call runs)
   * is refused, saying no job runs, instead of reaching a job that is gone.
   */
  detach(): void {
    this.live.onElicit = undefined;
    this.live.onSample = undefined;
  }

  /**
   * Connects every server and lists its tools; a refusal is an McpAuthError (what was started is stopped again), any
   * other failure leaves that server out with a warning. Kills them all when `signal` aborts.
   */
  static async open(servers: readonly SessionServer[], options: SessionOptions): Promise<McpSession> {
    if (servers.length === 0) return McpSession.empty;
    const live: SessionOptions = { ...options };
    const redact = redactor(() => servers.flatMap(secretsOf));
    const settled = await Promise.allSettled(
      servers.map((s) =>
        McpConnection.open(s.config, {
          ...options,
          token: s.token,
          authProvider: s.authProvider,
          timeouts: timeoutsOf(s.config, options.timeouts),
          asks: asksOf(live),
        }),
      ),
    );
    const opened = settled.flatMap((r, i) =>
      r.status === 'fulfilled' ? [{ server: servers[i] as SessionServer, connection: r.value }] : [],
    );
    const slots: ServerSlot[] = [];
    // Deferred, so that each call's own abort listener sends its notifications/cancelled before the server goes.
    const kill = () =>
      queueMicrotask(() => {
        for (const o of opened) o.connection.kill();
        for (const s of slots) s.kill();
      });
    live.signal.addEventListener('abort', kill, { once: true });
    const stopKilling = () => live.signal.removeEventListener('abort', kill);
    try {
      if (options.signal.aborted) throw new Error(`cancelled while connecting: ${String(options.signal.reason)}`);
      for (const [i, r] of settled.entries()) {
        const server = (servers[i] as SessionServer).config.name;
        if (r.status === 'fulfilled') options.onAuth?.(server, null);
        else if (r.reason instanceof McpAuthError) options.onAuth?.(server, r.reason);
      }
      const refused = settled.findIndex((r) => r.status === 'rejected' && r.reason instanceof McpAuthError);
      if (refused >= 0) throw (settled[refused] as PromiseRejectedResult).reason as McpAuthError;
      const leaveOut = (server: string, reason: string) => {
        options.onServer?.(server, { status: 'failed', error: redact(reason) });
        options.onWarning?.(server, redact(leftOutMessage(server, reason)));
      };
      for (const [i, r] of settled.entries()) {
        if (r.status === 'rejected') leaveOut((servers[i] as SessionServer).config.name, reasonOf(r.reason));
      }

      const listed = await Promise.all(
        opened.map(async ({ server, connection }) => {
          try {
            const tools = await connection.listTools(options.signal);
            const timeouts = timeoutsOf(server.config, options.timeouts);
            const slot = new ServerSlot(server, timeouts, connection, live, redact);
            slots.push(slot);
            return tools.map((tool) => ({ slot, tool, server: server.config.name }));
          } catch (e) {
            connection.kill();
            leaveOut(server.config.name, `listing its tools failed: ${(e as Error).message}`);
            return [];
          }
        }),
      );
      if (options.signal.aborted) throw new Error(`cancelled while connecting: ${String(options.signal.reason)}`);
      const named = assignToolNames(listed.flat());
      for (const slot of slots) {
        const tools = named.filter((t) => t.slot === slot).map((t) => t.name);
        options.onServer?.(slot.name, { status: 'connected', tools });
      }
      const tools = named
        .map((t) => mcpToolDef(t.name, t.tool, (args, ctx) => t.slot.call(t.tool.name, args, ctx)))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return new McpSession(tools, slots, live, kill);
    } catch (error) {
      stopKilling();
      for (const o of opened) o.connection.kill();
      throw error;
    }
  }

  /** Pids of the stdio servers still running (tests check that none outlives its job). */
  get pids(): number[] {
    return this.slots.flatMap((s) => (s.pid === null ? [] : [s.pid]));
  }

  /** Ends every connection at the end of the job. */
  async close(): Promise<void> {
    this.stopKilling();
    await Promise.all(this.slots.map((s) => s.close()));
  }
}

const reasonOf = (error: unknown) =>
  error instanceof Error ? ('reason' in error ? String(error.reason) : error.message) : String(error);

/** A server's secrets as they are now: its pasted token, or its sign-in's tokens (a refresh replaces them). */
function secretsOf(server: SessionServer): string[] {
  if (server.token) return [server.token];
  let tokens: ReturnType<OAuthClientProvider['tokens']>;
  try {
    tokens = server.authProvider?.tokens();
  } catch {
    return [];
  }
  if (!tokens || tokens instanceof Promise) return [];
  return [tokens.access_token, tokens.refresh_token ?? ''];
}

/**
 * Replaces every token in a text the model or a person will read (a server that echoes one, an error message), as
 * the tokens are when it is read.
 */
function redactor(secrets: () => readonly string[]): (text: string) => string {
  return (text) =>
    secrets()
      .filter((t) => t.length > 0)
      .reduce((out, t) => out.replaceAll(t, '[token]'), text);
}

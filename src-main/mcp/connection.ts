// One connection of a job to one MCP server, over the SDK's client: a stdio child process, streamable HTTP or the
// older HTTP+SSE transport, with the saved token in the environment variable or header the config names. Starting is
// bounded (the server must answer `initialize` in time, and one that prints something else than MCP on stdout is
// told apart); a call sends a progressToken, and its progress extends its timeout up to a maximum. A server signed in
// to with OAuth gets the SDK's auth provider (oauth.ts), which attaches the token and refreshes it. A 401 or 403 —
// while connecting or on any call — is an McpAuthError (the job parks); anything else that stops the connection is
// an McpConnectError.
//
// The client declares what people's servers use: roots (the workspace folder, the only root; it never changes while a
// session lives, since a session belongs to one workspace, so listChanged is false), form elicitation and sampling,
// both answered through the job (ServerAsks: a card for the person, the task's model). While a server waits for the
// person, its calls' timeouts stand still: the person's time is not the server's.

import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type OAuthClientProvider, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OAuthError, ServerError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { CodedError } from '../../src-shared/errors';
import type { OsSandbox, SandboxChoice, Sandboxed } from '../tools/os-sandbox';
import { launchesPackage } from '../tools/sandbox-reads';
import { shellQuote } from '../tools/shell-quote';
import type { ToolProgress } from '../tools/types';
import { formatToken, type McpServerConfig, type McpTimeouts, type StdioServerConfig } from './config';
import type { CallToolResult } from './content';
import type { ListedTool } from './mcp-tools';
import { SignInNeeded } from './oauth';

/** The server refused the job's credentials (HTTP 401, or 403 for a scope they lack), or needs a sign-in again. */
export class McpAuthError extends CodedError {
  readonly code = 'mcp_credentials_refused';
  constructor(
    readonly server: string,
    readonly status: 401 | 403 = 401,
    /** A sign-in's tokens could not be renewed (the authorization server did not answer); they are kept. */
    readonly renewFailed = false,
  ) {
    super(
      renewFailed
        ? `MCP server "${server}": the sign-in could not be renewed`
        : `MCP server "${server}" refused the credentials (HTTP ${status})`,
    );
  }
}

/** The server could not be started or reached; `retryable` when another attempt may work (not a missing program). */
export class McpConnectError extends CodedError {
  readonly code = 'mcp_unreachable';
  constructor(
    readonly server: string,
    readonly reason: string,
    readonly retryable: boolean,
  ) {
    super(`MCP server "${server}" could not be connected: ${reason}`);
  }
}

export interface ConnectOptions {
  token: string | null;
  /** An OAuth sign-in's tokens, attached and refreshed by the SDK (instead of `token`). */
  authProvider?: OAuthClientProvider;
  signal: AbortSignal;
  timeouts: McpTimeouts;
  clientVersion: string;
  /** The OS sandbox a stdio server runs in. */
  sandbox?: SandboxChoice;
  /** The workspace folder: the server's one root. */
  workspacePath?: string;
  /** Who answers the server's elicitation and sampling requests (none: they are refused, saying so). */
  asks?: ServerAsks;
}

/** What a server asks the client during a job; each throws an Error with a JSON-RPC `code` (refusal) and the reason the server gets. */
export interface ServerAsks {
  elicit(server: string, params: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>>;
  sample(server: string, params: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>>;
}

/**
 * An answer of JSON-RPC error `code` with `message` as it is (an McpError would send its own "MCP error N:" prefix in
 * the message, and the server's SDK adds another): what the server reads is the reason alone.
 */
export function refusal(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** Where a job's answers to its servers' requests come from; read at each request (a resumed job replaces them). */
export interface AskHooks {
  onElicit?: ServerAsks['elicit'];
  onSample?: ServerAsks['sample'];
  /** The job's signal: its end (cancel, shutdown) closes what it was asked. */
  signal?: AbortSignal;
}

/** The server's requests answered by whatever `hooks` holds when each arrives; refused when it holds nothing. */
export function asksOf(hooks: AskHooks): ServerAsks {
  // The server may cancel its request (its signal), and the job may end (the job's, read now: a resume replaces it).
  const withJob = (signal: AbortSignal) => (hooks.signal ? AbortSignal.any([signal, hooks.signal]) : signal);
  const none = (what: string) => {
    throw refusal(ErrorCode.InvalidRequest, `MAESTRO has no one to answer ${what} here (no job is running)`);
  };
  return {
    elicit: (server, params, signal) => hooks.onElicit?.(server, params, withJob(signal)) ?? none('an elicitation'),
    sample: (server, params, signal) => hooks.onSample?.(server, params, withJob(signal)) ?? none('a sampling request'),
  };
}

/**
 * A request of `method` with any params: the requests a server sends the client are read here (elicitation.ts,
 * sampling.ts), so that one the SDK's own schema would refuse with a zod dump gets a reason a person can read.
 */
const anyRequest = (method: string) =>
  z.object({ method: z.literal(method), params: z.record(z.string(), z.unknown()).optional() });

/** An SDK timeout that never fires first: a call's own clock (CallClock) times it, standing still while asking. */
const FAR_MS = 2 ** 31 - 1;

/** How much of a stdio server's stderr is kept, to say why it stopped. */
const STDERR_TAIL = 2000;
/** On cancel, how long a stdio server has after its stdin closed before SIGTERM, and before SIGKILL. */
const TERM_GRACE_MS = 250;
const KILL_GRACE_MS = 1000;
/** A server that printed non-MCP output while starting has this long to answer `initialize` after all. */
const NOISE_GRACE_MS = 1000;

export class McpConnection {
  private closed = false;
  private exited = false;
  /** The server's requests waiting for the person now; while any waits, the calls' clocks stand still. */
  private asking = 0;
  private readonly clocks = new Set<CallClock>();
  /** Releases the server's sandbox once its process is gone. */
  private onExit: (() => void) | undefined;
  /** A line explaining the paths of a result that the server's sandbox hides from it, or null. */
  explain: (output: string) => string | null = () => null;

  private constructor(
    readonly server: McpServerConfig,
    private readonly client: Client,
    private readonly transport: Transport,
    private readonly timeouts: McpTimeouts,
    private readonly stderr: string[],
  ) {
    client.onclose = () => {
      this.exited = true;
      this.onExit?.();
    };
  }

  static async open(server: McpServerConfig, options: ConnectOptions): Promise<McpConnection> {
    const stderr: string[] = [];
    const sandboxed =
      server.transport === 'stdio' && options.sandbox?.ok
        ? await sandboxedLaunch(server, options.sandbox.sandbox)
        : null;
    const transport = makeTransport(server, options, stderr, sandboxed);
    const client = new Client(
      { name: 'maestro-desktop', version: options.clientVersion },
      {
        capabilities: {
          ...(options.workspacePath ? { roots: { listChanged: false } } : {}),
          ...(options.asks ? { elicitation: { form: {} }, sampling: {} } : {}),
        },
      },
    );
    const connection = new McpConnection(server, client, transport, options.timeouts, stderr);
    connection.answerRequests(options);
    connection.onExit = sandboxed?.release;
    if (sandboxed) connection.explain = sandboxed.explain;
    try {
      await startBounded(client, transport, options);
      // Installed and answering: the registries an `npx -y …` needed are closed again.
      sandboxed?.settled();
    } catch (error) {
      connection.kill();
      const refused = authRefusal(server.name, error);
      if (refused) throw refused;
      const code = (error as NodeJS.ErrnoException).code;
      const reason = `${(error as Error).message}${connection.stderrTail()}`;
      throw new McpConnectError(server.name, reason, code !== 'ENOENT' && code !== 'EACCES');
    }
    return connection;
  }

  /** Roots, elicitation and sampling, as the capabilities declared them. */
  private answerRequests(options: ConnectOptions): void {
    const { workspacePath, asks } = options;
    if (workspacePath) {
      this.client.setRequestHandler(anyRequest('roots/list'), () => ({
        roots: [{ uri: pathToFileURL(workspacePath).href, name: path.basename(workspacePath) || workspacePath }],
      }));
    }
    if (!asks) return;
    // Past the Client's own wrapper (Protocol's): its schema check would answer a nested form with a zod dump.
    const handle = (method: string, answer: ServerAsks['elicit']) =>
      Protocol.prototype.setRequestHandler.call(this.client, anyRequest(method), (request, extra) =>
        this.whileAsking(() => answer(this.server.name, request.params ?? {}, extra.signal)),
      );
    handle('elicitation/create', (server, params, signal) => asks.elicit(server, params, signal));
    handle('sampling/createMessage', (server, params, signal) => asks.sample(server, params, signal));
  }

  private async whileAsking<T>(run: () => Promise<T>): Promise<T> {
    if (this.asking++ === 0) for (const clock of this.clocks) clock.pause();
    try {
      return await run();
    } finally {
      if (--this.asking === 0) for (const clock of this.clocks) clock.resume();
    }
  }

  /** The pid of a stdio server's process (null over HTTP, or once it exited). */
  get pid(): number | null {
    return this.transport instanceof StdioClientTransport && !this.exited ? this.transport.pid : null;
  }

  /** Whether the connection ended without being closed here: the process exited, or the transport closed. */
  get lost(): boolean {
    return this.exited && !this.closed;
  }

  /** What the server last wrote on stderr, as " (stderr: …)", or ''. */
  stderrTail(): string {
    const tail = this.stderr.join('').trim().slice(-STDERR_TAIL);
    return tail ? ` (stderr: ${tail})` : '';
  }

  async listTools(signal: AbortSignal): Promise<ListedTool[]> {
    const tools: ListedTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.client.listTools(cursor ? { cursor } : {}, { signal, timeout: this.timeouts.startupMs });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  /**
   * Calls a tool with a progressToken: each progress notification reaches `onProgress` and restarts the call's
   * timeout, up to its maximum. On abort the SDK sends `notifications/cancelled` for the call.
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    onProgress?: (progress: ToolProgress) => void,
  ): Promise<CallToolResult> {
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    // The SDK sends notifications/cancelled with the McpError the clock aborts with, and rejects the call with it.
    const clock = new CallClock(this.timeouts, (error) => controller.abort(error));
    this.clocks.add(clock);
    if (this.asking > 0) clock.pause();
    try {
      return (await this.client.callTool({ name, arguments: args }, undefined, {
        signal: controller.signal,
        timeout: FAR_MS,
        onprogress: (p) => {
          clock.progress();
          onProgress?.(p);
        },
      })) as CallToolResult;
    } catch (error) {
      throw authRefusal(this.server.name, error) ?? error;
    } finally {
      clock.stop();
      this.clocks.delete(clock);
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** Ends the connection: a stdio server gets its stdin closed, then SIGTERM, then SIGKILL (the SDK's order). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.client.close().catch(() => {});
  }

  /**
   * Ends it now (cancel, shutdown). A stdio server's stdin is closed at once, so a well-behaved server exits after
   * reading what was sent last (a call's cancellation); SIGTERM follows shortly, SIGKILL a second later. An HTTP
   * connection closes after the same second, so the cancellation of a call in flight is still posted.
   */
  kill(): void {
    const pid = this.pid;
    if (pid === null) {
      setTimeout(() => void this.close(), KILL_GRACE_MS).unref();
      return;
    }
    void this.close();
    const unless = (signal: NodeJS.Signals) => () => {
      if (!this.exited) signalProcess(pid, signal);
    };
    setTimeout(unless('SIGTERM'), TERM_GRACE_MS).unref();
    setTimeout(unless('SIGKILL'), KILL_GRACE_MS).unref();
  }
}

/**
 * A call's timeout as the SDK words it: `toolMs` without news, restarted by each progress notification, and at most
 * `toolMaxMs` in all; it stands still while the server waits for the person (paused), and starts afresh after.
 */
class CallClock {
  private timer: NodeJS.Timeout | undefined;
  private totalTimer: NodeJS.Timeout | undefined;
  /** The call's time so far, the person's left out; and since when it runs again. */
  private spent = 0;
  private since = Date.now();
  private paused = false;

  constructor(
    private readonly timeouts: McpTimeouts,
    private readonly expire: (error: McpError) => void,
  ) {
    this.arm();
  }

  private get maxMs(): number {
    return Math.max(this.timeouts.toolMaxMs, this.timeouts.toolMs);
  }

  private arm(): void {
    this.disarm();
    const { toolMs } = this.timeouts;
    this.timer = setTimeout(
      () => this.expire(new McpError(ErrorCode.RequestTimeout, 'Request timed out', { timeout: toolMs })),
      toolMs,
    );
    this.totalTimer = setTimeout(
      () =>
        this.expire(
          new McpError(ErrorCode.RequestTimeout, 'Maximum total timeout exceeded', { maxTotalTimeout: this.maxMs }),
        ),
      Math.max(0, this.maxMs - this.spent),
    );
  }

  private disarm(): void {
    clearTimeout(this.timer);
    clearTimeout(this.totalTimer);
  }

  progress(): void {
    if (!this.paused) {
      clearTimeout(this.timer);
      const { toolMs } = this.timeouts;
      this.timer = setTimeout(
        () => this.expire(new McpError(ErrorCode.RequestTimeout, 'Request timed out', { timeout: toolMs })),
        toolMs,
      );
    }
  }

  pause(): void {
    if (this.paused) return;
    this.paused = true;
    this.spent += Date.now() - this.since;
    this.disarm();
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.since = Date.now();
    this.arm();
  }

  stop(): void {
    this.paused = true;
    this.disarm();
  }
}

/**
 * `client.connect` (the transport's start and `initialize`) within the startup timeout, whatever hangs: a process
 * that never answers, an SSE stream that never names its endpoint. A line on stdout that is not MCP leaves the
 * server a short grace to answer anyway (some print a banner first), then fails naming what it printed.
 */
function startBounded(client: Client, transport: Transport, options: ConnectOptions): Promise<void> {
  const { startupMs } = options.timeouts;
  return new Promise<void>((resolve, reject) => {
    const timers: NodeJS.Timeout[] = [];
    const settle = (error?: Error) => {
      for (const t of timers) clearTimeout(t);
      client.onerror = undefined;
      options.signal.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve();
    };
    const onAbort = () => settle(new Error(`cancelled while starting: ${String(options.signal.reason)}`));
    if (options.signal.aborted) return onAbort();
    options.signal.addEventListener('abort', onAbort, { once: true });
    timers.push(
      setTimeout(
        () => settle(new Error(`did not finish starting (initialize) within ${seconds(startupMs)}`)),
        startupMs,
      ),
    );
    let noise: string | null = null;
    client.onerror = (error) => {
      if (noise !== null || !(error instanceof SyntaxError || error.name === 'ZodError')) return;
      noise = error.message.slice(0, 300);
      timers.push(
        setTimeout(() => settle(new Error(`printed output that is not MCP on stdout: ${noise}`)), NOISE_GRACE_MS),
      );
    };
    client.connect(transport, { signal: options.signal, timeout: startupMs }).then(
      () => settle(),
      (error: Error) => settle(error),
    );
  });
}

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

/**
 * 401 or 403 when the error is the server refusing the credentials: its HTTP answer, the SDK's UnauthorizedError (a
 * sign-in's refresh did not help), or a sign-in needed again; null for anything else.
 */
function authRefusal(server: string, error: unknown): McpAuthError | null {
  if (error instanceof SignInNeeded) return new McpAuthError(server, 401, error.renewFailed);
  if (error instanceof UnauthorizedError) return new McpAuthError(server, 401);
  // The authorization server's own refusal (a refresh refused twice, a client it no longer knows) or failure.
  if (error instanceof OAuthError) return new McpAuthError(server, 401, error instanceof ServerError);
  if (!(error instanceof StreamableHTTPError || error instanceof SseError)) return null;
  return error.code === 401 || error.code === 403 ? new McpAuthError(server, error.code) : null;
}

/**
 * The server's command line, wrapped to run in the sandbox: the workspace writable, its listed folders readable and
 * hosts reachable; launched with `npx -y …` or `uvx …`, the package caches writable and the registries reachable until
 * it has started.
 */
const sandboxedLaunch = (server: StdioServerConfig, sandbox: OsSandbox): Promise<Sandboxed> =>
  sandbox.wrap([server.command, ...server.args].map(shellQuote).join(' '), server.cwd, {
    writable: [server.workspacePath],
    readable: server.readable,
    network: server.network,
    installs: launchesPackage(server.command),
  });

function makeTransport(
  server: McpServerConfig,
  { token, authProvider }: Pick<ConnectOptions, 'token' | 'authProvider'>,
  stderr: string[],
  sandboxed: Sandboxed | null,
): Transport {
  if (server.transport === 'stdio') {
    const env = {
      ...server.env,
      ...(token !== null && server.tokenEnv ? { [server.tokenEnv]: formatToken(server, token) } : {}),
    };
    // The SDK starts from a minimal environment (PATH, HOME, …): the app's own variables, keys among them, stay out.
    const transport = new StdioClientTransport({
      command: sandboxed?.file ?? server.command,
      args: sandboxed?.args ?? server.args,
      env,
      cwd: server.cwd,
      stderr: 'pipe',
    });
    let kept = 0;
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr.push(chunk.toString('utf8'));
      kept += chunk.length;
      while (kept > STDERR_TAIL * 2 && stderr.length > 1) kept -= (stderr.shift() as string).length;
    });
    return transport;
  }
  const headers = { ...server.headers };
  if (token !== null) headers[server.tokenHeader] = formatToken(server, token);
  const url = new URL(server.url);
  return server.transport === 'sse'
    ? new SSEClientTransport(url, { requestInit: { headers }, authProvider })
    : new StreamableHTTPClientTransport(url, { requestInit: { headers }, authProvider });
}

function signalProcess(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

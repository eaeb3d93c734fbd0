// One connection of a job to one MCP server, over the SDK's client: a stdio child process, streamable HTTP or the
// older HTTP+SSE transport (transport.ts), with the saved token in the environment variable or header the config
// names. Starting is bounded (the server must answer `initialize` in time, and one that prints something else than MCP
// on stdout is told apart); a call sends a progressToken, and its progress extends its timeout up to a maximum
// (call-clock.ts). A server signed in to with OAuth gets the SDK's auth provider (oauth-provider.ts), which attaches
// the token and refreshes it. A 401 or 403 — while connecting or on any call — is an McpAuthError (the job parks);
// anything else that stops the connection is an McpConnectError (connection-errors.ts).
//
// The client declares what people's servers use: roots (the workspace folder, the only root; it never changes while a
// session lives, since a session belongs to one workspace, so listChanged is false), form elicitation and sampling,
// both answered through the job (ServerAsks in server-asks.ts: a card for the person, the task's model). While a
// server waits for the person, its calls' timeouts stand still: the person's time is not the server's.

import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ToolProgress } from '../tools/types';
import { CallClock } from './call-clock';
import type { McpServerConfig, McpTimeouts } from './config';
import { authRefusal, McpConnectError } from './connection-errors';
import type { CallToolResult } from './content';
import type { ListedTool } from './mcp-tools';
import { anyRequest, type ServerAsks } from './server-asks';
import { type ConnectOptions, makeTransport, STDERR_TAIL, sandboxedLaunch, startBounded } from './transport';

/** An SDK timeout that never fires first: a call's own clock (CallClock) times it, standing still while asking. */
const FAR_MS = 2 ** 31 - 1;

/** On cancel, how long a stdio server has after its stdin closed before SIGTERM, and before SIGKILL. */
const TERM_GRACE_MS = 250;
const KILL_GRACE_MS = 1000;

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

function signalProcess(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

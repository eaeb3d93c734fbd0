// One connection of a job to one MCP server, over the SDK's client: a stdio child process or streamable HTTP, with
// the saved token in the environment variable or header the config names. A 401 while connecting is an
// McpAuthError (the job parks); anything else that stops the connection is an McpConnectError.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CodedError } from '../../src-shared/errors';
import type { OsSandbox, SandboxChoice, Sandboxed } from '../tools/os-sandbox';
import { shellQuote } from '../tools/shell-quote';
import type { McpServerConfig, StdioServerConfig } from './config';
import type { CallToolResult, ListedTool } from './mcp-tools';

/** The server refused the job's credentials (HTTP 401). */
export class McpAuthError extends CodedError {
  readonly code = 'mcp_credentials_refused';
  constructor(readonly server: string) {
    super(`MCP server "${server}" refused the credentials (HTTP 401)`);
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
  signal: AbortSignal;
  timeoutMs: number;
  clientVersion: string;
  /** The OS sandbox a stdio server runs in. */
  sandbox?: SandboxChoice;
}

/** How much of a stdio server's stderr is kept, to say why it stopped. */
const STDERR_TAIL = 2000;
/** After SIGTERM on cancel, how long a stdio server has before SIGKILL. */
const KILL_GRACE_MS = 1000;

export class McpConnection {
  private closed = false;
  private exited = false;
  /** Releases the server's sandbox once its process is gone. */
  private onExit: (() => void) | undefined;

  private constructor(
    readonly server: McpServerConfig,
    private readonly client: Client,
    private readonly transport: Transport,
    private readonly timeoutMs: number,
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
    const transport = makeTransport(server, options.token, stderr, sandboxed);
    const client = new Client({ name: 'maestro-desktop', version: options.clientVersion }, { capabilities: {} });
    const connection = new McpConnection(server, client, transport, options.timeoutMs);
    connection.onExit = sandboxed?.release;
    try {
      await client.connect(transport, { signal: options.signal, timeout: options.timeoutMs });
    } catch (error) {
      connection.kill();
      if (error instanceof StreamableHTTPError && error.code === 401) throw new McpAuthError(server.name);
      const code = (error as NodeJS.ErrnoException).code;
      const tail = stderr.join('').trim().slice(-STDERR_TAIL);
      const reason = `${(error as Error).message}${tail ? ` (stderr: ${tail})` : ''}`;
      throw new McpConnectError(server.name, reason, code !== 'ENOENT' && code !== 'EACCES');
    }
    return connection;
  }

  /** The pid of a stdio server's process (null over HTTP, or once it exited). */
  get pid(): number | null {
    return this.transport instanceof StdioClientTransport && !this.exited ? this.transport.pid : null;
  }

  async listTools(signal: AbortSignal): Promise<ListedTool[]> {
    const tools: ListedTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.client.listTools(cursor ? { cursor } : {}, { signal, timeout: this.timeoutMs });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  async callTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    return (await this.client.callTool({ name, arguments: args }, undefined, {
      signal,
      timeout: this.timeoutMs,
      resetTimeoutOnProgress: true,
    })) as CallToolResult;
  }

  /** Ends the connection: a stdio server gets its stdin closed, then SIGTERM, then SIGKILL (the SDK's order). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.client.close().catch(() => {});
  }

  /** Ends it now (cancel, shutdown): a stdio server gets SIGTERM at once and SIGKILL a second later. */
  kill(): void {
    const pid = this.pid;
    if (pid !== null) {
      signalProcess(pid, 'SIGTERM');
      setTimeout(() => {
        if (!this.exited) signalProcess(pid, 'SIGKILL');
      }, KILL_GRACE_MS).unref();
    }
    void this.close();
  }
}

/** The server's command line, wrapped to run in the sandbox: the workspace writable, its listed hosts reachable. */
const sandboxedLaunch = (server: StdioServerConfig, sandbox: OsSandbox): Promise<Sandboxed> =>
  sandbox.wrap([server.command, ...server.args].map(shellQuote).join(' '), server.cwd, {
    writable: [server.workspacePath],
    network: server.network,
  });

function makeTransport(
  server: McpServerConfig,
  token: string | null,
  stderr: string[],
  sandboxed: Sandboxed | null,
): Transport {
  if (server.transport === 'stdio') {
    const env = { ...server.env, ...(token !== null && server.tokenEnv ? { [server.tokenEnv]: token } : {}) };
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
  if (token !== null) headers[server.tokenHeader] = authorizationValue(server.tokenHeader, token);
  return new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } });
}

/** `Authorization` carries a bearer token; any other header named in the config carries the token as it is. */
const authorizationValue = (header: string, token: string) =>
  header.toLowerCase() === 'authorization' ? `Bearer ${token}` : token;

function signalProcess(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

// A connection's transport to its MCP server (stdio in the sandbox, streamable HTTP, HTTP+SSE), and its bounded start.
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { OsSandbox, SandboxChoice, Sandboxed } from '../tools/os-sandbox';
import { launchesPackage } from '../tools/sandbox-reads';
import { shellQuote } from '../tools/shell-quote';
import { formatToken, type McpServerConfig, type McpTimeouts, type StdioServerConfig } from './config';
import type { ServerAsks } from './server-asks';

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

/** How much of a stdio server's stderr is kept, to say why it stopped. */
export const STDERR_TAIL = 2000;
/** A server that printed non-MCP output while starting has this long to answer `initialize` after all. */
const NOISE_GRACE_MS = 1000;

/**
 * `client.connect` (the transport's start and `initialize`) within the startup timeout, whatever hangs: a process
 * that never answers, an SSE stream that never names its endpoint. A line on stdout that is not MCP leaves the
 * server a short grace to answer anyway (some print a banner first), then fails naming what it printed.
 */
export function startBounded(client: Client, transport: Transport, options: ConnectOptions): Promise<void> {
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
 * The server's command line, wrapped to run in the sandbox: the workspace writable, its listed folders readable and
 * hosts reachable; launched with `npx -y …` or `uvx …`, the package caches writable and the registries reachable until
 * it has started.
 */
export const sandboxedLaunch = (server: StdioServerConfig, sandbox: OsSandbox): Promise<Sandboxed> =>
  sandbox.wrap([server.command, ...server.args].map(shellQuote).join(' '), server.cwd, {
    writable: [server.workspacePath],
    readable: server.readable,
    network: server.network,
    installs: launchesPackage(server.command),
  });

export function makeTransport(
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

// One server of a job's MCP session: its connection and its calls. A server whose process exited (or whose transport
// was lost) is started again for the next call, after a short wait that grows, at most MAX_RESTARTS times in a job:
// a server that keeps crashing is left down and said so, never restarted in a loop.
import { type Backoff, backoffMs } from '../../src-shared/backoff';
import { describeIssues, type IssueLike } from '../../src-shared/issues';
import { fail } from '../tools/outcome';
import type { ToolContext, ToolOutcome } from '../tools/types';
import type { McpServerConfig, McpTimeouts } from './config';
import { McpConnection } from './connection';
import { McpAuthError } from './connection-errors';
import { toolResult } from './content';
import { asksOf } from './server-asks';
import { refusalMessage, type SessionOptions, type SessionServer } from './session';

export const MAX_RESTARTS = 3;
const RESTART_BACKOFF: Backoff = { baseDelayMs: 250, maxDelayMs: 4000 };

export class ServerSlot {
  private restarts = 0;
  private reopening: Promise<McpConnection | McpAuthError | string> | null = null;
  /** The server refused the credentials: the next call connects afresh, with whatever is saved by then. */
  private refused = false;
  readonly config: McpServerConfig;

  constructor(
    private readonly credentials: SessionServer,
    readonly timeouts: McpTimeouts,
    private connection: McpConnection,
    private readonly options: SessionOptions,
    private readonly redact: (text: string) => string,
  ) {
    this.config = credentials.config;
  }

  get name(): string {
    return this.config.name;
  }

  get pid(): number | null {
    return this.connection.pid;
  }

  /**
   * Calls `tool`: on a connection that was lost, after starting the server again (or why it is not). A server that
   * refuses the credentials (401, 403, a sign-in to give again) parks the job: the model never sees that refusal,
   * and the call runs again once new credentials are given.
   */
  async call(tool: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutcome> {
    const connection = this.connection.lost || this.refused ? await this.reopen(ctx.signal) : this.connection;
    if (connection instanceof McpAuthError) return this.parkOn(connection);
    if (typeof connection === 'string') return fail(`MCP server "${this.name}": ${this.redact(connection)}`);
    try {
      const result = toolResult(await connection.callTool(tool, args, ctx.signal, ctx.progress));
      // A path the server could not read because its sandbox hides it: the model and the person are told so.
      const hidden = connection.explain(result.content);
      return { ...result, content: this.redact(hidden === null ? result.content : `${result.content}\n${hidden}`) };
    } catch (error) {
      if (error instanceof McpAuthError) return this.parkOn(error);
      return fail(`MCP server "${this.name}": ${this.redact(this.describe(connection, tool, error))}`);
    }
  }

  private parkOn(error: McpAuthError): ToolOutcome {
    this.refused = true;
    this.connection.kill();
    this.options.onAuth?.(this.name, error);
    return { kind: 'wait', mcpAuth: { server: this.name, message: refusalMessage(error, this.credentials) } };
  }

  /** What went wrong with a call, in words: a crash (with what the server said), a malformed answer, a timeout. */
  private describe(connection: McpConnection, tool: string, error: unknown): string {
    if (connection.lost) {
      const reason = this.redact(`exited during the call of ${tool}${connection.stderrTail()}`);
      const next = this.restarts < MAX_RESTARTS ? 'it is started again for the next call' : 'it is not started again';
      this.options.onServer?.(this.name, { status: 'failed', error: reason });
      this.options.onWarning?.(this.name, `MCP server "${this.name}" ${reason}; ${next}.`);
      return `${reason}; ${next}`;
    }
    const issues = (error as { issues?: IssueLike[] }).issues;
    if (Array.isArray(issues)) {
      return `answered ${tool} with a malformed result (${describeIssues(issues, { whole: 'result', limit: 3 })})`;
    }
    return error instanceof Error ? error.message : String(error);
  }

  /**
   * Starts the server again (one start for calls that find it lost together), or says why it is not; a server that
   * refused the credentials connects again at once (it did not crash), and may refuse them again (McpAuthError).
   */
  private reopen(signal: AbortSignal): Promise<McpConnection | McpAuthError | string> {
    this.reopening ??= this.restart(signal).finally(() => {
      this.reopening = null;
    });
    return this.reopening;
  }

  private async restart(signal: AbortSignal): Promise<McpConnection | McpAuthError | string> {
    const crashed = !this.refused;
    if (crashed) {
      if (this.restarts >= MAX_RESTARTS)
        return `stopped ${this.restarts + 1} times in this job; it is not started again`;
      this.restarts++;
      await abortableWait(backoffMs(this.restarts, RESTART_BACKOFF), signal);
    }
    if (signal.aborted) return 'cancelled';
    try {
      this.connection = await McpConnection.open(this.config, {
        ...this.options,
        token: this.credentials.token,
        authProvider: this.credentials.authProvider,
        timeouts: this.timeouts,
        asks: asksOf(this.options),
      });
      this.refused = false;
    } catch (error) {
      if (error instanceof McpAuthError) return error;
      const reason = `could not be started again: ${(error as Error).message}`;
      this.options.onServer?.(this.name, { status: 'failed', error: this.redact(reason) });
      this.options.onWarning?.(this.name, this.redact(`MCP server "${this.name}" ${reason}`));
      return reason;
    }
    if (signal.aborted) this.connection.kill();
    this.options.onAuth?.(this.name, null);
    this.options.onServer?.(
      this.name,
      crashed ? { status: 'connected', restarts: this.restarts } : { status: 'connected' },
    );
    return this.connection;
  }

  /** A new job took the session over: MAX_RESTARTS count per job. */
  newJob(): void {
    this.restarts = 0;
  }

  kill(): void {
    this.connection.kill();
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}

function abortableWait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

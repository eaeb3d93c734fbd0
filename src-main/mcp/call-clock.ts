// A tool call's timeout: restarted by progress, bounded in all, standing still while the server waits for the person.
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { McpTimeouts } from './config';

/**
 * A call's timeout as the SDK words it: `toolMs` without news, restarted by each progress notification, and at most
 * `toolMaxMs` in all; it stands still while the server waits for the person (paused), and starts afresh after.
 */
export class CallClock {
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

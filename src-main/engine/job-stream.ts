// Streams a job's generation to the UI as transient events, coalesced so that a fast stream does not flood IPC/SSE:
// deltas are gathered and sent at most every `intervalMs` — the first after a quiet interval at once, so a token is
// never held back waiting out a window — and flushed at the end of each LlmCall. A running tool
// call's progress goes the same way: its latest report per call, at most every `intervalMs`.
import type { NewEvent } from '../../src-shared/events';
import type { LlmDelta } from '../llm/types';
import type { ToolProgress } from '../tools/types';

export class JobStream {
  private text = '';
  private reasoning = '';
  private toolCalls = new Map<number, { id?: string; name?: string; arguments: string }>();
  private timer: NodeJS.Timeout | undefined;
  /** When the last delta event went (Date.now()): the next waits out the rest of its interval, if any. */
  private sentAt = Number.NEGATIVE_INFINITY;
  private progress = new Map<string, { name: string; update: ToolProgress }>();
  private progressTimer: NodeJS.Timeout | undefined;

  constructor(
    /** Sends one transient event. */
    private readonly emit: (event: NewEvent) => void,
    private readonly taskId: string,
    private readonly jobId: string,
    private readonly intervalMs = 50,
  ) {}

  push(delta: LlmDelta): void {
    if (delta.type === 'text') this.text += delta.text;
    else if (delta.type === 'reasoning') this.reasoning += delta.text;
    else {
      const call = this.toolCalls.get(delta.index) ?? { arguments: '' };
      if (delta.id) call.id = delta.id;
      if (delta.name) call.name = delta.name;
      call.arguments += delta.argumentsDelta;
      this.toolCalls.set(delta.index, call);
    }
    // A 0 ms timer still gathers the rest of the chunk the SDK hands over in the same tick.
    this.timer ??= setTimeout(() => this.flush(), Math.max(0, this.sentAt + this.intervalMs - Date.now()));
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.text && !this.reasoning && this.toolCalls.size === 0) return;
    this.emit({
      type: 'stream.delta',
      taskId: this.taskId,
      jobId: this.jobId,
      text: this.text,
      reasoning: this.reasoning,
      toolCalls: [...this.toolCalls].map(([index, c]) => ({
        index,
        ...(c.name ? { name: c.name } : {}),
        arguments: c.arguments,
      })),
    });
    this.sentAt = Date.now();
    this.text = '';
    this.reasoning = '';
    this.toolCalls.clear();
  }

  /** A running call's progress; the latest report of each call is sent at most every `intervalMs`. */
  toolProgress(call: { id: string; name: string }, update: ToolProgress): void {
    this.progress.set(call.id, { name: call.name, update });
    this.progressTimer ??= setTimeout(() => this.flushProgress(), this.intervalMs);
  }

  /** Sends the progress not sent yet (before a call's result, so that it comes first). */
  flushProgress(): void {
    clearTimeout(this.progressTimer);
    this.progressTimer = undefined;
    for (const [callId, { name, update }] of this.progress) {
      this.emit({
        type: 'tool.progress',
        taskId: this.taskId,
        jobId: this.jobId,
        callId,
        name,
        progress: update.progress,
        total: update.total ?? null,
        message: update.message ?? null,
      });
    }
    this.progress.clear();
  }
}

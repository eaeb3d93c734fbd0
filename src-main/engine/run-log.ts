// The Invoke/Turn/LlmCall log of a job: entries in one flat sequence (log_entries) and the matching events.
// An AgentTurn holds the LlmCalls made with identical input (retries); a new input opens a new AgentTurn.
//
// Entries are written behind: gathered and committed together every `flushMs` (and always before the run ends), so
// a fast loop does not pay a commit per iteration. The transcript is the durable record of the conversation; a crash
// can lose at most the last `flushMs` of log entries. LLM progress events are transient (pushed live, not stored):
// they are sent in order on the next turn of the event loop, so that the work between a reply and the next request
// is only what that request needs, and subscribers hear of it while the request is in flight.
import type { InvokeKind, NewEvent } from '../../src-shared/events';
import type { LogKind, UsageSums } from '../db/repos/log-entries';
import type { Store } from '../db/store';
import type { LlmCallRecord } from '../llm/types';

const TOOL_RESULT_LOG_CHARS = 2000;

export class RunLog {
  private invokeSeq: number | null;
  private agentTurnSeq: number | null = null;
  private turnUsage: UsageSums = zero();
  private pending: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private outbox: NewEvent[] = [];
  private sending: NodeJS.Immediate | undefined;
  /** AgentTurns of this run (the spec's turn_count) and LlmCalls (llm_call_count). */
  turnCount = 0;
  llmCallCount = 0;

  constructor(
    private readonly store: Store,
    private readonly taskId: string,
    private readonly jobId: string,
    private readonly flushMs = 100,
  ) {
    // A resumed job (approval, retry) continues the Invoke range it belongs to.
    this.invokeSeq = store.logEntries.lastInvokeSeq(taskId);
  }

  /** An idle → active start: the Invoke marker first, then the Turn carrying its content; written at once. */
  invoke(kind: InvokeKind, content: string): void {
    this.defer(() => {
      this.invokeSeq = this.append('Invoke', undefined, kind);
      this.append(kind === 'UserSend' ? 'UserTurn' : 'SystemTurn', { text: content });
    });
    this.defer(() => this.store.publish({ type: 'InvokeStart', taskId: this.taskId, jobId: this.jobId, kind }));
    this.flush();
  }

  userTurn(text: string): void {
    this.defer(() => this.append('UserTurn', { text }));
  }

  systemTurn(text: string): void {
    this.defer(() => this.append('SystemTurn', { text }));
  }

  /** The result is kept whole in the transcript; the log keeps its beginning and its length. */
  toolTurn(toolCallId: string, name: string, result: string): void {
    const body = {
      tool_call_id: toolCallId,
      name,
      result: result.slice(0, TOOL_RESULT_LOG_CHARS),
      chars: result.length,
    };
    this.defer(() => this.append('ToolTurn', body));
  }

  /** A persisted event that belongs with the entries around it (e.g. tool.finished), committed with them. */
  event(event: NewEvent): void {
    this.defer(() => this.store.publish(event));
  }

  startAgentTurn(): void {
    this.turnCount++;
    this.turnUsage = zero();
    this.defer(() => {
      this.agentTurnSeq = this.append('AgentTurn', undefined);
    });
    this.transient({ type: 'TurnStart', taskId: this.taskId, jobId: this.jobId, turnCount: this.turnCount });
  }

  llmCallStart(attempt: number): void {
    this.llmCallCount++;
    this.transient({
      type: 'LlmCallStart',
      taskId: this.taskId,
      jobId: this.jobId,
      llmCallCount: this.llmCallCount,
      attempt,
    });
  }

  llmCallEnd(end: LlmCallRecord): void {
    const usage: UsageSums = {
      llmCalls: 1,
      promptTokens: end.usage?.promptTokens ?? 0,
      completionTokens: end.usage?.completionTokens ?? 0,
      cachedPromptTokens: end.usage?.cachedPromptTokens ?? 0,
    };
    for (const k of Object.keys(usage) as (keyof UsageSums)[]) this.turnUsage[k] += usage[k];
    const llmCallCount = this.llmCallCount;
    this.defer(() =>
      this.store.logEntries.append({
        taskId: this.taskId,
        jobId: this.jobId,
        kind: 'LlmCall',
        invokeSeq: this.invokeSeq,
        agentTurnSeq: this.agentTurnSeq,
        body: { llmCallCount, ...(end.error ? { error: end.error } : {}) },
        llmCall: {
          attempt: end.attempt,
          outcome: end.outcome,
          latencyMs: end.latencyMs,
          ttftMs: end.ttftMs,
          promptTokens: usage.promptTokens,
          completionTokens: usage.completionTokens,
          cachedPromptTokens: usage.cachedPromptTokens,
        },
      }),
    );
    this.transient({
      type: 'LlmCallEnd',
      taskId: this.taskId,
      jobId: this.jobId,
      llmCallCount,
      attempt: end.attempt,
      outcome: end.outcome,
      latencyMs: end.latencyMs,
      ttftMs: end.ttftMs,
      usage,
      cachedPromptTokens: usage.cachedPromptTokens,
    });
  }

  endAgentTurn(): void {
    this.transient({
      type: 'TurnEnd',
      taskId: this.taskId,
      jobId: this.jobId,
      turnCount: this.turnCount,
      usage: this.turnUsage,
    });
  }

  /** A transient event (LLM progress, the UI stream): sent after the current step, in the order given. */
  transient(event: NewEvent): void {
    this.outbox.push(event);
    this.sending ??= setImmediate(() => this.send());
  }

  /** Sends the transient events now. */
  send(): void {
    clearImmediate(this.sending);
    this.sending = undefined;
    const outbox = this.outbox;
    this.outbox = [];
    for (const event of outbox) this.store.emitTransient(event);
  }

  /** Sends the transient events, then commits every gathered entry and event in order, in one transaction. */
  flush(): void {
    this.send();
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const pending = this.pending;
    this.pending = [];
    this.store.transact(() => {
      for (const write of pending) write();
    });
  }

  private defer(write: () => void): void {
    this.pending.push(write);
    this.timer ??= setTimeout(() => this.flush(), this.flushMs);
  }

  private append(kind: LogKind, body: unknown, invokeKind?: InvokeKind): number {
    return this.store.logEntries.append({
      taskId: this.taskId,
      jobId: this.jobId,
      kind,
      invokeSeq: kind === 'Invoke' ? null : this.invokeSeq,
      agentTurnSeq: null,
      invokeKind: invokeKind ?? null,
      body,
    });
  }
}

const zero = (): UsageSums => ({ llmCalls: 0, promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0 });

// The Invoke/Turn/LlmCall log of a job: entries in one flat sequence (log_entries) and the matching events, written
// through — each call writes before it returns, except an AgentTurn, whose entry and LlmCall entries are written
// together, in one transaction, when its generation ends (endAgentTurn). The agent loop groups a step's other writes
// in one transaction. An AgentTurn holds the LlmCalls made with identical input (retries); a new input opens a new
// AgentTurn. LLM progress events are transient (pushed live, not stored).
import type { InvokeKind, NewEvent } from '../../src-shared/events';
import type { LogKind, UsageSums } from '../db/repos/log-entries';
import type { Store } from '../db/store';
import type { LlmCallRecord } from '../llm/types';

const TOOL_RESULT_LOG_CHARS = 2000;

export class RunLog {
  private invokeSeq: number | null;
  private turnUsage: UsageSums = zero();
  /** The LlmCalls of the AgentTurn in progress, with their llm_call_count, written when it ends. */
  private turnCalls: { count: number; end: LlmCallRecord; usage: UsageSums }[] = [];
  /** AgentTurns of this run (the spec's turn_count) and LlmCalls (llm_call_count). */
  turnCount = 0;
  llmCallCount = 0;

  constructor(
    private readonly store: Store,
    private readonly taskId: string,
    private readonly jobId: string,
  ) {
    // A resumed job (approval, retry) continues the Invoke range it belongs to.
    this.invokeSeq = store.logEntries.lastInvokeSeq(taskId);
  }

  /** An idle → active start: the Invoke marker, then the Turn carrying its content. */
  invoke(kind: InvokeKind, content: string): void {
    this.store.transact(() => {
      this.invokeSeq = this.append('Invoke', undefined, kind);
      this.append(kind === 'UserSend' ? 'UserTurn' : 'SystemTurn', { text: content });
      this.store.publish({ type: 'InvokeStart', taskId: this.taskId, jobId: this.jobId, kind });
    });
  }

  userTurn(text: string): void {
    this.append('UserTurn', { text });
  }

  systemTurn(text: string): void {
    this.append('SystemTurn', { text });
  }

  /** The result is kept whole in the transcript; the log keeps its beginning and its length. */
  toolTurn(toolCallId: string, name: string, result: string): void {
    this.append('ToolTurn', {
      tool_call_id: toolCallId,
      name,
      result: result.slice(0, TOOL_RESULT_LOG_CHARS),
      chars: result.length,
    });
  }

  /** A persisted event that belongs with the entries around it (e.g. tool.finished). */
  event(event: NewEvent): void {
    this.store.publish(event);
  }

  startAgentTurn(): void {
    this.turnCount++;
    this.turnUsage = zero();
    this.turnCalls = [];
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
    this.turnCalls.push({ count: this.llmCallCount, end, usage });
    this.transient({
      type: 'LlmCallEnd',
      taskId: this.taskId,
      jobId: this.jobId,
      llmCallCount: this.llmCallCount,
      attempt: end.attempt,
      outcome: end.outcome,
      latencyMs: end.latencyMs,
      ttftMs: end.ttftMs,
      usage,
      cachedPromptTokens: usage.cachedPromptTokens,
    });
  }

  /** The AgentTurn's entry and its LlmCalls' entries, in one transaction; then its TurnEnd event. */
  endAgentTurn(): void {
    const calls = this.turnCalls;
    this.turnCalls = [];
    this.store.transact(() => {
      const agentTurnSeq = this.append('AgentTurn', undefined);
      for (const { count, end, usage } of calls) {
        this.store.logEntries.append({
          taskId: this.taskId,
          jobId: this.jobId,
          kind: 'LlmCall',
          invokeSeq: this.invokeSeq,
          agentTurnSeq,
          body: {
            llmCallCount: count,
            ...(end.usage?.reasoningTokens !== undefined ? { reasoningTokens: end.usage.reasoningTokens } : {}),
            ...(end.error ? { error: end.error } : {}),
          },
          llmCall: {
            attempt: end.attempt,
            outcome: end.outcome,
            latencyMs: end.latencyMs,
            ttftMs: end.ttftMs,
            promptTokens: usage.promptTokens,
            completionTokens: usage.completionTokens,
            cachedPromptTokens: usage.cachedPromptTokens,
          },
        });
      }
    });
    this.transient({
      type: 'TurnEnd',
      taskId: this.taskId,
      jobId: this.jobId,
      turnCount: this.turnCount,
      usage: this.turnUsage,
    });
  }

  /** A transient event (LLM progress, the UI stream), sent now. */
  transient(event: NewEvent): void {
    this.store.emitTransient(event);
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

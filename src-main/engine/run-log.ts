// The Invoke/Turn/LlmCall log of a job: entries in one flat sequence (log_entries) and the matching events, written
// through — each call writes before it returns, except an AgentTurn, whose entry and LlmCall entries are written
// together, in one transaction, when its generation ends (endAgentTurn). The agent loop groups a step's other writes
// in one transaction. An AgentTurn holds the LlmCalls made with identical input (retries); a new input opens a new
// AgentTurn. LLM progress events and the chat's step events are transient (pushed live; the log holds what they say).
import {
  type ChatStep,
  STEP_RESULT_CHARS,
  type StepBody,
  stepId,
  type ToolCallDenial,
  type ToolCallResult,
  ToolResultImage,
  type UsageSums,
} from '../../src-shared/entities';
import type { InvokeKind, NewEvent } from '../../src-shared/events';
import type { CapacityWait } from '../llm/capacity';
import type { LlmCallRecord } from '../llm/types';
import type { ToolMedia } from '../tools/types';
import type { JobJournal, LogKind } from './job-journal';

/** Reasoning a step keeps for the chat (the transcript keeps it whole). */
const STEP_REASONING_CHARS = 20_000;

/** What an AgentTurn produced, as its step records it: a generation that failed has an error and nothing else. */
export type StepContent = Omit<StepBody, 'error'> & { error?: string };

export class RunLog {
  private invokeSeq: number | null;
  private turnUsage: UsageSums = zero();
  /** The LlmCalls of the AgentTurn in progress, with their llm_call_count, written when it ends. */
  private turnCalls: { count: number; end: LlmCallRecord; usage: UsageSums }[] = [];
  /** AgentTurns of this run (the spec's turn_count) and LlmCalls (llm_call_count). */
  turnCount = 0;
  llmCallCount = 0;

  private readonly taskId: string;
  private readonly jobId: string;

  constructor(private readonly journal: JobJournal) {
    this.taskId = journal.task.id;
    this.jobId = journal.job.id;
    // A resumed job (approval, retry) continues the Invoke range it belongs to.
    this.invokeSeq = journal.lastInvokeSeq();
  }

  /** An idle → active start: the Invoke marker, then the Turn carrying its content. */
  invoke(kind: InvokeKind, content: string): void {
    this.journal.step(() => {
      this.invokeSeq = this.append('Invoke', undefined, kind);
      this.append(kind === 'UserSend' ? 'UserTurn' : 'SystemTurn', { text: content });
      this.journal.publish({ type: 'InvokeStart', taskId: this.taskId, jobId: this.jobId, kind });
    });
  }

  userTurn(text: string): void {
    this.append('UserTurn', { text });
  }

  systemTurn(text: string): void {
    this.append('SystemTurn', { text });
  }

  /**
   * The answer to a call of the AgentTurn `turnSeq` (null: a turn recorded before steps were). The result is kept whole
   * in the transcript; the log keeps its beginning and its length, and the chat's step gets it — with what the person
   * sees in its place (`display`), when the tool gave one.
   */
  toolTurn(
    turnSeq: number | null,
    toolCallId: string,
    name: string,
    result: { ok: boolean; content: string; display?: string; denial?: ToolCallDenial; media?: readonly ToolMedia[] },
  ): void {
    const images = chatImages(result.media);
    const body = {
      tool_call_id: toolCallId,
      name,
      result: result.content.slice(0, STEP_RESULT_CHARS),
      chars: result.content.length,
      ok: result.ok,
      // What the person sees instead (a write's whole diff): kept whole, the tool has capped it.
      ...(result.display === undefined ? {} : { display: result.display }),
      // A denial as data, so the chat words it for the person instead of showing the model's text.
      ...(result.denial === undefined ? {} : { denial: result.denial }),
      // The images the tool returned, for the person to see (the model's text names them only), size-limited.
      ...(images.length === 0 ? {} : { images }),
    };
    this.journal.append({
      kind: 'ToolTurn',
      invokeSeq: this.invokeSeq,
      agentTurnSeq: turnSeq,
      body,
    });
    if (turnSeq === null) return;
    this.transient({
      type: 'step.answered',
      taskId: this.taskId,
      jobId: this.jobId,
      stepSeq: turnSeq,
      callId: toolCallId,
      result: answered(body, result.denial),
    });
  }

  /** A persisted event that belongs with the entries around it (e.g. tool.finished). */
  event(event: NewEvent): void {
    this.journal.publish(event);
  }

  /** `depth` > 0: a delegated sub-agent's turn. */
  startAgentTurn(depth: number): void {
    this.turnCount++;
    this.turnUsage = zero();
    this.turnCalls = [];
    this.transient({
      type: 'TurnStart',
      taskId: this.taskId,
      jobId: this.jobId,
      turnCount: this.turnCount,
      ...(depth > 0 ? { depth } : {}),
    });
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

  /** The next LlmCall waits for the profile's capacity (llm/capacity.ts). */
  llmWait(wait: CapacityWait): void {
    this.transient({
      type: 'LlmWait',
      taskId: this.taskId,
      jobId: this.jobId,
      reason: wait.reason,
      ...(wait.reason === 'rate_limited' ? { until: new Date(wait.untilMs).toISOString() } : {}),
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

  /**
   * The AgentTurn's entry — its content, the step the chat shows — and its LlmCalls' entries, in one transaction; then
   * its step and TurnEnd events. Returns the AgentTurn's seq.
   */
  endAgentTurn(content: StepContent): number {
    const calls = this.turnCalls;
    this.turnCalls = [];
    const body: StepBody = { ...content, reasoning: content.reasoning.slice(0, STEP_REASONING_CHARS) };
    const now = Date.now();
    const seq = this.journal.step(() => {
      const agentTurnSeq = this.append('AgentTurn', body, undefined, now);
      for (const { count, end, usage } of calls) {
        this.journal.append({
          kind: 'LlmCall',
          invokeSeq: this.invokeSeq,
          agentTurnSeq,
          body: {
            llmCallCount: count,
            // What prices the call: the profile and the model asked for (the answering model may name a snapshot).
            ...(end.profile !== undefined ? { profile: end.profile } : {}),
            ...(end.requestModel !== undefined ? { model: end.requestModel } : {}),
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
      return agentTurnSeq;
    });
    const step: ChatStep = {
      id: stepId(seq),
      seq,
      taskId: this.taskId,
      jobId: this.jobId,
      createdAt: new Date(now).toISOString(),
      movement: body.movement,
      depth: body.depth,
      text: body.text,
      reasoning: body.reasoning,
      toolCalls: body.toolCalls.map((c) => ({ ...c, result: null })),
      error: body.error ?? null,
      usage: { ...this.turnUsage },
    };
    this.transient({ type: 'step.recorded', taskId: this.taskId, jobId: this.jobId, step });
    this.transient({
      type: 'TurnEnd',
      taskId: this.taskId,
      jobId: this.jobId,
      turnCount: this.turnCount,
      usage: this.turnUsage,
    });
    return seq;
  }

  /** A transient event (LLM progress, the UI stream), sent now, or when the surrounding transaction commits. */
  transient(event: NewEvent): void {
    this.journal.transient(event);
  }

  private append(kind: LogKind, body: unknown, invokeKind?: InvokeKind, now = Date.now()): number {
    return this.journal.append(
      {
        kind,
        invokeSeq: kind === 'Invoke' ? null : this.invokeSeq,
        agentTurnSeq: null,
        invokeKind: invokeKind ?? null,
        body,
      },
      now,
    );
  }
}

/** The answer as the chat's step shows it. */
/** At most this many images of one result are kept for the chat, each at most this large (the log holds them). */
export const CHAT_IMAGES_MAX = 4;
export const CHAT_IMAGE_MAX_BYTES = 512 * 1024;

/** The images of a result the chat shows: of a type every browser shows, within the limits (others: named only). */
function chatImages(media: readonly ToolMedia[] | undefined): ToolResultImage[] {
  const images: ToolResultImage[] = [];
  for (const m of media ?? []) {
    if (images.length >= CHAT_IMAGES_MAX) break;
    const image = ToolResultImage.safeParse({ mimeType: m.mimeType, data: m.data });
    if (m.kind === 'image' && image.success && Buffer.byteLength(m.data, 'base64') <= CHAT_IMAGE_MAX_BYTES)
      images.push(image.data);
  }
  return images;
}

function answered(
  body: { result: string; chars: number; ok: boolean; display?: string; images?: ToolResultImage[] },
  denial: ToolCallDenial | undefined,
): ToolCallResult {
  return {
    ok: body.ok,
    content: body.result,
    chars: body.chars,
    ...(body.display === undefined ? {} : { display: body.display }),
    ...(body.images === undefined ? {} : { images: body.images }),
    ...(denial === undefined ? {} : { denial }),
  };
}

const zero = (): UsageSums => ({ llmCalls: 0, promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0 });

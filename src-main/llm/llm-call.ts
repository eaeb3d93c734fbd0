// One LlmCall: send the request, stream the chunks into text, reasoning and tool calls, report deltas and usage.
import type OpenAI from 'openai';
import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { type AttemptFailure, classifyFailure } from './retry';
import type { FinishReason, LlmDelta, LlmToolCall, LlmUsage } from './types';

export interface LlmCallOutput {
  text: string;
  reasoning: string;
  toolCalls: LlmToolCall[];
  finishReason: FinishReason;
}

export interface LlmCallOutcomeData {
  ttftMs: number | null;
  usage: LlmUsage | null;
  model?: string;
  requestId?: string;
}

export type LlmCallResult =
  | ({ ok: true; output: LlmCallOutput } & LlmCallOutcomeData)
  | ({ ok: false; failure: AttemptFailure } & LlmCallOutcomeData);

export interface LlmCallContext {
  sdk: OpenAI;
  body: ChatCompletionCreateParamsStreaming;
  signal: AbortSignal | undefined;
  /** Longest silence allowed before the first byte and between chunks; the call then fails as retryable. */
  idleTimeoutMs: number;
  callNumber: number;
  onDelta: (delta: LlmDelta) => void;
}

export async function runLlmCall(ctx: LlmCallContext): Promise<LlmCallResult> {
  const started = Date.now();
  const controller = new AbortController();
  const state = { aborted: false, stalled: false };
  const onAbort = () => {
    state.aborted = true;
    controller.abort();
  };
  if (ctx.signal?.aborted) onAbort();
  ctx.signal?.addEventListener('abort', onAbort, { once: true });
  let idle: NodeJS.Timeout | undefined;
  const armIdle = () => {
    if (idle) idle.refresh();
    else {
      idle = setTimeout(() => {
        state.stalled = true;
        controller.abort();
      }, ctx.idleTimeoutMs);
    }
  };
  let finished = false;
  const acc = new ChunkAccumulator(ctx.callNumber);
  let requestId: string | undefined;
  const data = (): LlmCallOutcomeData => ({
    ttftMs: acc.firstDeltaAt === null ? null : acc.firstDeltaAt - started,
    usage: acc.usage,
    ...(acc.model ? { model: acc.model } : {}),
    ...(requestId ? { requestId } : {}),
  });
  try {
    armIdle();
    let iterator: AsyncIterator<ChatCompletionChunk>;
    try {
      const { data: stream, request_id } = await ctx.sdk.chat.completions
        .create(ctx.body, { signal: controller.signal })
        .withResponse();
      requestId = request_id ?? undefined;
      iterator = stream[Symbol.asyncIterator]();
    } catch (err) {
      return { ok: false, failure: classifyFailure(err, state), ...data() };
    }
    for (;;) {
      let next: IteratorResult<ChatCompletionChunk>;
      try {
        next = await iterator.next();
      } catch (err) {
        return { ok: false, failure: classifyFailure(err, state), ...data() };
      }
      // The SDK ends the iteration quietly when its request is aborted.
      if (state.aborted || state.stalled) return { ok: false, failure: classifyFailure(null, state), ...data() };
      if (next.done) {
        finished = true;
        break;
      }
      armIdle();
      acc.add(next.value, ctx.onDelta);
    }
    const output = acc.output();
    if (!output) {
      return {
        ok: false,
        failure: { disposition: 'retry', message: 'stream ended without a finish_reason' },
        ...data(),
      };
    }
    return { ok: true, output, ...data() };
  } finally {
    clearTimeout(idle);
    ctx.signal?.removeEventListener('abort', onAbort);
    if (!finished) controller.abort(); // closes the connection if we leave early (a hook threw)
  }
}

const FINISH_REASONS: readonly string[] = ['stop', 'length', 'tool_calls', 'content_filter', 'function_call'];

interface LooseDelta {
  content?: string | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
  tool_calls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[];
}

interface LooseUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
  /** DeepSeek's name for cached prompt tokens. */
  prompt_cache_hit_tokens?: number;
}

/** Folds the chunks of one stream into its output; tool calls are assembled by index. */
class ChunkAccumulator {
  text = '';
  reasoning = '';
  private readonly calls = new Map<number, LlmToolCall>();
  finishReason: FinishReason | null = null;
  usage: LlmUsage | null = null;
  model: string | undefined;
  firstDeltaAt: number | null = null;

  constructor(private readonly callNumber: number) {}

  add(chunk: ChatCompletionChunk, emit: (delta: LlmDelta) => void): void {
    if (chunk.model) this.model = chunk.model;
    if (chunk.usage) this.usage = toUsage(chunk.usage as LooseUsage);
    for (const choice of chunk.choices ?? []) {
      if (choice.index !== 0) continue;
      const delta = (choice.delta ?? {}) as LooseDelta;
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      if (reasoning) {
        this.reasoning += reasoning;
        this.emit(emit, { type: 'reasoning', text: reasoning });
      }
      if (delta.content) {
        this.text += delta.content;
        this.emit(emit, { type: 'text', text: delta.content });
      }
      for (const tc of delta.tool_calls ?? []) this.addToolCall(tc, emit);
      if (choice.finish_reason) {
        this.finishReason = FINISH_REASONS.includes(choice.finish_reason)
          ? (choice.finish_reason as FinishReason)
          : 'stop';
      }
    }
  }

  private addToolCall(tc: NonNullable<LooseDelta['tool_calls']>[number], emit: (delta: LlmDelta) => void): void {
    let call = this.calls.get(tc.index);
    if (!call) {
      call = { id: '', name: '', arguments: '' };
      this.calls.set(tc.index, call);
    }
    if (tc.id) call.id = tc.id;
    if (tc.function?.name) call.name = tc.function.name;
    const argumentsDelta = tc.function?.arguments ?? '';
    call.arguments += argumentsDelta;
    this.emit(emit, {
      type: 'tool_call',
      index: tc.index,
      ...(tc.id ? { id: tc.id } : {}),
      ...(tc.function?.name ? { name: tc.function.name } : {}),
      argumentsDelta,
    });
  }

  private emit(emit: (delta: LlmDelta) => void, delta: LlmDelta): void {
    this.firstDeltaAt ??= Date.now();
    emit(delta);
  }

  /** Null when no finish_reason arrived: the stream is incomplete. */
  output(): LlmCallOutput | null {
    if (this.finishReason === null) return null;
    const toolCalls = [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, c]) => ({ ...c, id: c.id || `call_${this.callNumber}_${index}` }));
    return { text: this.text, reasoning: this.reasoning, toolCalls, finishReason: this.finishReason };
  }
}

function toUsage(u: LooseUsage): LlmUsage {
  return {
    promptTokens: u.prompt_tokens ?? 0,
    completionTokens: u.completion_tokens ?? 0,
    cachedPromptTokens: u.prompt_tokens_details?.cached_tokens ?? u.prompt_cache_hit_tokens ?? 0,
  };
}

// One LlmCall: send the request, stream the chunks into text, reasoning and tool calls, report deltas and usage.
import OpenAI from 'openai';
import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { bodyBytes } from './body-bytes';
import { ChunkAccumulator, type LlmCallOutput, type StreamError } from './chunks';
import { meteredRequest, ReplyMeter } from './metered-fetch';
import { ReplyLimitError, type ReplyLimits } from './reply-limits';
import { type AttemptFailure, type CallState, classifyFailure } from './retry';
import type { LlmDelta, LlmUsage } from './types';

export type { LlmCallOutput } from './chunks';

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
  /** What the call may spend: its reply is cut, and the call fails for good, at the first limit it passes. */
  limits: ReplyLimits;
  callNumber: number;
  onDelta: (delta: LlmDelta) => void;
}

export async function runLlmCall(ctx: LlmCallContext): Promise<LlmCallResult> {
  const started = Date.now();
  const controller = new AbortController();
  const state: CallState = { aborted: false, stalled: false };
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
  const breached = (breach: NonNullable<CallState['breach']>) => {
    state.breach ??= breach;
    controller.abort();
  };
  // However steadily bytes trickle in (each restarting the idle timer), the call ends at its total time.
  const seconds = ctx.limits.maxCallSeconds;
  const overtime = setTimeout(() => breached({ limit: 'maxCallSeconds', value: seconds }), seconds * 1000);
  const meter = new ReplyMeter(ctx.limits, breached);
  let finished = false;
  const acc = new ChunkAccumulator(ctx.callNumber, ctx.limits.maxToolArgumentBytes);
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
        .create(ctx.body, {
          body: bodyBytes(ctx.body),
          headers: { 'content-type': 'application/json' },
          signal: controller.signal,
          fetchOptions: meteredRequest(meter),
        })
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
        const frame = state.aborted || state.stalled || state.breach ? null : sdkErrorFrame(err);
        const failure = frame ? inStreamFailure(frame, state) : classifyFailure(err, state);
        return { ok: false, failure, ...data() };
      }
      // The SDK ends the iteration quietly when its request is aborted.
      if (state.aborted || state.stalled || state.breach) {
        return { ok: false, failure: classifyFailure(null, state), ...data() };
      }
      if (next.done) {
        finished = true;
        break;
      }
      armIdle();
      let error: StreamError | null;
      try {
        error = acc.add(next.value, ctx.onDelta);
      } catch (err) {
        if (!(err instanceof ReplyLimitError)) throw err;
        breached(err.breach);
        return { ok: false, failure: classifyFailure(err, state), ...data() };
      }
      if (error) return { ok: false, failure: inStreamFailure(error, state), ...data() };
    }
    acc.end(ctx.onDelta);
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
    clearTimeout(overtime);
    ctx.signal?.removeEventListener('abort', onAbort);
    if (!finished) controller.abort(); // closes the connection if we leave early (a hook threw)
  }
}

/** The SDK throws an `{"error":…}` frame of a 200 stream as an APIError without a status. */
function sdkErrorFrame(err: unknown): StreamError | null {
  if (!(err instanceof OpenAI.APIError) || err.status !== undefined) return null;
  if (err instanceof OpenAI.APIConnectionError || err instanceof OpenAI.APIUserAbortError) return null;
  return { message: err.message, code: err.code };
}

/** HTTP-like codes inside an error frame that say the same request can never succeed. */
const PERMANENT_CODES = new Set(['400', '401', '402', '403', '404', '413', '422']);

/**
 * An error the server reported inside its stream, in its words: retried like a cut stream, unless it says the prompt
 * does not fit (retry.ts reads that) or carries a code that refuses the request for good.
 */
function inStreamFailure(error: StreamError, state: CallState): AttemptFailure {
  const message = `server error in the stream: ${error.message}`;
  const classified = classifyFailure(new OpenAI.APIError(undefined, { message }, undefined, undefined), state);
  if (classified.disposition === 'retry' && PERMANENT_CODES.has(String(error.code))) {
    return { disposition: 'terminal', message };
  }
  return { ...classified, message };
}

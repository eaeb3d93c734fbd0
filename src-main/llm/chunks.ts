// Stream assembly: the chunks of one OpenAI-compatible stream, in the shapes real servers send, folded into the
// output of an LlmCall, with live deltas on the way.
import { type UsageFields, usageOf } from './stream-usage';
import { type ContentPiece, ThinkTagSplitter } from './think-tags';
import { assembleToolCalls, type LooseToolCallDelta, ToolCallAssembly } from './tool-call-assembly';
import type { FinishReason, LlmDelta, LlmResult, LlmUsage } from './types';

/** What one successful LlmCall produced: an AgentTurn's result without its usage and records. */
export type LlmCallOutput = Omit<LlmResult, 'usage' | 'calls'>;

/** An error the server reported inside a 200 stream, in its own words. */
export interface StreamError {
  message: string;
  code?: unknown;
}

/** Magistral streams its content as parts: answer text, and thinking as a list of text parts. */
interface ContentPart {
  type?: string;
  text?: string;
  thinking?: ContentPart[] | string;
}

interface LooseDelta {
  content?: string | ContentPart[] | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
  reasoning_details?: unknown[] | null;
  tool_calls?: LooseToolCallDelta[] | null;
  extra_content?: unknown;
  refusal?: string | null;
}

interface LooseChoice {
  index?: number;
  delta?: LooseDelta | null;
  finish_reason?: string | null;
  /** Moonshot (Kimi) reports usage inside the last chunk's choice. */
  usage?: UsageFields['usage'];
  error?: { message?: unknown; code?: unknown } | null;
}

interface LooseChunk extends UsageFields {
  model?: string;
  object?: string;
  message?: unknown;
  code?: unknown;
  choices?: LooseChoice[] | null;
}

const FINISH_REASONS: readonly string[] = ['stop', 'length', 'tool_calls', 'content_filter', 'function_call'];
/** String fields of a reasoning_details block that stream in pieces. */
const APPENDED = new Set(['text', 'summary', 'data']);

type Emit = (delta: LlmDelta) => void;

/** Folds the chunks of one stream into its output. `add` returns the error a chunk reports, if any. */
export class ChunkAccumulator {
  private text = '';
  private reasoning = '';
  private details: Record<string, unknown>[] | undefined;
  private extra: unknown;
  private refusal = '';
  private readonly calls: ToolCallAssembly;
  private readonly think = new ThinkTagSplitter();
  private finishReason: FinishReason | null = null;
  usage: LlmUsage | null = null;
  model: string | undefined;
  firstDeltaAt: number | null = null;

  /** `maxToolArgumentBytes`: what one tool call's arguments may hold; `add` throws ReplyLimitError past it. */
  constructor(
    private readonly callNumber: number,
    maxToolArgumentBytes?: number,
  ) {
    this.calls = new ToolCallAssembly(maxToolArgumentBytes);
  }

  add(value: unknown, emit: Emit): StreamError | null {
    const frameError = errorFrame(value);
    if (frameError) return frameError;
    const chunk = value as LooseChunk;
    if (chunk.model) this.model = chunk.model;
    this.usage = usageOf(chunk, this.usage);
    for (const choice of chunk.choices ?? []) {
      if ((choice.index ?? 0) !== 0) continue;
      if (choice.usage) this.usage = usageOf({ usage: choice.usage }, this.usage);
      const delta = choice.delta ?? {};
      this.addReasoning(delta, emit);
      this.addContent(delta.content, emit);
      if (delta.extra_content !== undefined && delta.extra_content !== null) this.extra = delta.extra_content;
      if (delta.refusal) this.refusal += delta.refusal;
      for (const tc of delta.tool_calls ?? []) {
        const live = this.calls.add(tc);
        if (live) this.emit(emit, live);
      }
      if (choice.finish_reason === 'error') {
        const message = typeof choice.error?.message === 'string' ? `: ${choice.error.message}` : '';
        return {
          message: `the server ended the stream with finish_reason "error"${message}`,
          code: choice.error?.code,
        };
      }
      // A repeated finish chunk (some servers send one more with the usage) does not change the first.
      if (choice.finish_reason && this.finishReason === null) {
        this.finishReason = FINISH_REASONS.includes(choice.finish_reason)
          ? (choice.finish_reason as FinishReason)
          : 'stop';
      }
    }
    return null;
  }

  /** Releases what the think-tag splitter still holds; call once the stream has ended. */
  end(emit: Emit): void {
    this.pieces(this.think.flush(), emit);
  }

  /** Null when no finish_reason arrived: the stream is incomplete. */
  output(): LlmCallOutput | null {
    if (this.finishReason === null) return null;
    const toolCalls = assembleToolCalls(this.calls, this.callNumber);
    // Gemini ends a reply that calls tools with "stop".
    const finishReason = toolCalls.length > 0 && this.finishReason === 'stop' ? 'tool_calls' : this.finishReason;
    return {
      text: this.text,
      reasoning: this.reasoning,
      ...(this.details ? { reasoningDetails: this.details } : {}),
      ...(this.extra !== undefined ? { extra: this.extra } : {}),
      ...(this.refusal ? { refusal: this.refusal } : {}),
      toolCalls,
      finishReason,
    };
  }

  private addReasoning(delta: LooseDelta, emit: Emit): void {
    const pieces = Array.isArray(delta.reasoning_details) ? delta.reasoning_details : [];
    if (pieces.length > 0) this.details = mergeDetails(this.details ?? [], pieces);
    const reasoning = delta.reasoning_content || delta.reasoning || pieces.map(detailText).join('');
    if (reasoning) this.pieces([{ type: 'reasoning', text: reasoning }], emit);
  }

  private addContent(content: LooseDelta['content'], emit: Emit): void {
    if (typeof content === 'string') {
      if (content) this.pieces(this.think.feed(content), emit);
      return;
    }
    for (const part of content ?? []) {
      if (part.type === 'thinking') this.pieces([{ type: 'reasoning', text: thinkingText(part.thinking) }], emit);
      else if (typeof part.text === 'string') this.pieces(this.think.feed(part.text), emit);
    }
  }

  private pieces(pieces: ContentPiece[], emit: Emit): void {
    for (const piece of pieces) {
      if (!piece.text) continue;
      if (piece.type === 'reasoning') this.reasoning += piece.text;
      else this.text += piece.text;
      this.emit(emit, { type: piece.type, text: piece.text });
    }
  }

  private emit(emit: Emit, delta: LlmDelta): void {
    this.firstDeltaAt ??= Date.now();
    emit(delta);
  }
}

/**
 * The error a frame carries instead of a chunk: vLLM's `{"object":"error","message":…}`, or an array of `{error}`
 * (Gemini). (The SDK itself throws on a frame with an `error` field.)
 */
function errorFrame(value: unknown): StreamError | null {
  const first: unknown = Array.isArray(value) ? value[0] : undefined;
  if (isRecord(first) && isRecord(first.error)) {
    return { message: String(first.error.message ?? JSON.stringify(first.error)), code: first.error.code };
  }
  if (isRecord(value) && value.object === 'error') {
    return { message: String(value.message ?? JSON.stringify(value)), code: value.code };
  }
  return null;
}

/** OpenRouter streams a reasoning block in pieces sharing its `index`: their text joins, later fields fill in. */
function mergeDetails(into: Record<string, unknown>[], pieces: unknown[]): Record<string, unknown>[] {
  for (const piece of pieces) {
    if (!isRecord(piece)) continue;
    const same =
      typeof piece.index === 'number' ? into.find((d) => d.index === piece.index && d.type === piece.type) : undefined;
    if (!same) {
      into.push({ ...piece });
      continue;
    }
    for (const [key, value] of Object.entries(piece)) {
      const current = same[key];
      if (APPENDED.has(key) && typeof value === 'string' && typeof current === 'string') same[key] = current + value;
      else if (value !== null && value !== undefined) same[key] = value;
    }
  }
  return into;
}

function detailText(detail: unknown): string {
  if (!isRecord(detail)) return '';
  if (detail.type === 'reasoning.text' && typeof detail.text === 'string') return detail.text;
  if (detail.type === 'reasoning.summary' && typeof detail.summary === 'string') return detail.summary;
  return '';
}

function thinkingText(thinking: ContentPart['thinking']): string {
  if (typeof thinking === 'string') return thinking;
  return (thinking ?? []).map((p) => p.text ?? '').join('');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

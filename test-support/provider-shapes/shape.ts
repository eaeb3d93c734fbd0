// The provider corpus's vocabulary: a shape is what one server streams for a request, where it was taken from, and
// what the LLM layer must make of it.
import type { LlmErrorKind } from '../../src-main/llm/errors';
import type { FinishReason, LlmUsage } from '../../src-main/llm/types';
import type { ProviderKind } from '../../src-shared/contract/profiles';
import type { RawReply } from '../scripted-llm-server';

export interface ExpectedCall {
  /** Omitted when the server sends none (the client makes one up). */
  id?: string;
  name: string;
  arguments: Record<string, unknown>;
  extra?: unknown;
}

export type ShapeOutcome =
  | {
      ok: true;
      text: string;
      reasoning: string;
      reasoningDetails?: unknown[];
      extra?: unknown;
      toolCalls: ExpectedCall[];
      finishReason: FinishReason;
      /** The AgentTurn's usage (summed over its LlmCalls). */
      usage: LlmUsage;
      /** LlmCalls made (more than 1 when the first reply is a fault that is retried). */
      llmCalls: number;
    }
  | { ok: false; kind: LlmErrorKind; message: RegExp };

export interface ProviderShape {
  name: string;
  /** The profile kind of the server that sends it (default `generic`): decides what goes back in the next request. */
  kind?: ProviderKind;
  /** `recorded`: a stream captured from the server; `documented`: built from its code, docs or issue tracker. */
  origin: 'recorded' | 'documented';
  /** Where the shape comes from. */
  source: string;
  /** The replies to one AgentTurn's requests, in order; with `repeat`, the last one answers every further request. */
  replies: RawReply[];
  repeat?: boolean;
  expect: ShapeOutcome;
}

/** SSE frames in the envelope most servers share (id, object, created, model; one choice at index 0). */
export function frames(id: string, model: string) {
  return (delta: Record<string, unknown>, finishReason: string | null = null, more: Record<string, unknown> = {}) => ({
    id,
    object: 'chat.completion.chunk',
    created: 1_760_000_000,
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
    ...more,
  });
}

export const DONE = 'data: [DONE]';

/** What every tool-calling shape asks for, so one tool serves the whole corpus. */
export const WEATHER_TOOL = 'get_weather';

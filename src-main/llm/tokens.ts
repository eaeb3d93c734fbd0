// A cheap prompt size estimate and the client-side guard that refuses a request too big for the model (P4.19).
import { LlmError } from './errors';
import type { ChatMessage, ToolSpec } from './types';

/** ~4 ASCII characters per token; any other character counts as one token (CJK text is about that dense). */
export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) ascii++;
    else if (code < 0xdc00 || code > 0xdfff) other++; // a surrogate pair counts once
  }
  return Math.ceil(ascii / 4) + other;
}

/** Estimates by object: messages and tool arrays are never edited, so each is measured once. */
const measured = new WeakMap<object, number>();
const measure = (value: object): number => {
  let tokens = measured.get(value);
  if (tokens === undefined) {
    tokens = estimateTokens(JSON.stringify(value));
    measured.set(value, tokens);
  }
  return tokens;
};

export function estimatePromptTokens(messages: readonly ChatMessage[], tools: readonly ToolSpec[] = []): number {
  let total = 0;
  for (const m of messages) total += measure(m);
  return total + (tools.length > 0 ? measure(tools) : 0);
}

/**
 * Throws LlmError `context_overflow` when the prompt estimate plus `reserveTokens` for the answer exceeds
 * `contextWindow`; returns the estimate otherwise.
 */
export function checkTokenLimit(
  messages: readonly ChatMessage[],
  tools: readonly ToolSpec[],
  contextWindow: number,
  reserveTokens: number,
): number {
  const estimatedTokens = estimatePromptTokens(messages, tools);
  if (estimatedTokens + reserveTokens > contextWindow) {
    throw new LlmError(
      'context_overflow',
      `prompt of ~${estimatedTokens} tokens plus ${reserveTokens} reserved for the answer exceeds the context window of ${contextWindow} tokens; not sent`,
      { estimatedTokens, contextWindow },
    );
  }
  return estimatedTokens;
}

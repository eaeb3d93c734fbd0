// Prompt size: a real BPE tokenizer for the model family (gpt-tokenizer's o200k_base / cl100k_base), with a
// character heuristic as the fallback, and the client-side guard that refuses a request too big for the model (P4.19).
import { createRequire } from 'node:module';
import { LlmError } from './errors';
import type { ChatMessage, ToolSpec } from './types';

export type TokenEncoding = 'o200k_base' | 'cl100k_base' | 'heuristic';

export interface TokenCounter {
  readonly encoding: TokenEncoding;
  count(text: string): number;
  /** count(JSON.stringify(value)), counted once per object: messages and tool arrays are never edited. */
  measure(value: object): number;
}

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

function tokenCounter(encoding: TokenEncoding, count: (text: string) => number): TokenCounter {
  const measured = new WeakMap<object, number>();
  return {
    encoding,
    count,
    measure(value) {
      let tokens = measured.get(value);
      if (tokens === undefined) {
        tokens = count(JSON.stringify(value));
        measured.set(value, tokens);
      }
      return tokens;
    },
  };
}

/** The fallback: no model family known to need it, or the tokenizer could not be loaded. */
export const heuristicTokens = tokenCounter('heuristic', estimateTokens);

/**
 * The encoding of a model family. OpenAI's older chat models use cl100k_base; everything else — OpenAI's current
 * models, and the open-weight families served by llama.cpp/Ollama/vLLM, whose own vocabularies are of the same size
 * class — is counted with o200k_base, which is within a few percent for them and never needs a download.
 */
export function encodingForModel(model: string): Exclude<TokenEncoding, 'heuristic'> {
  const name = model.toLowerCase().split('/').pop() ?? '';
  return /^(gpt-4(?!o|\.)|gpt-3\.5|text-embedding-(3|ada))/.test(name) ? 'cl100k_base' : 'o200k_base';
}

// Loaded on first use (each encoding's table costs ~0.3 s and some MiB), never at start-up.
const load = createRequire(__filename);
const counters = new Map<TokenEncoding, TokenCounter>();
const EVERY_SPECIAL_AS_TEXT = { disallowedSpecial: new Set<string>() };

type Bpe = { countTokens(text: string, options: typeof EVERY_SPECIAL_AS_TEXT): number };

/**
 * A BPE counter; the heuristic when the tokenizer cannot be loaded (`onFallback` says why). Text that looks like a
 * special token (`<|endoftext|>`) is counted as the text it is, as a server tokenizes user content.
 */
export function bpeCounter(
  encoding: Exclude<TokenEncoding, 'heuristic'>,
  onFallback: (why: string) => void = console.warn,
  loadModule: (id: string) => unknown = load,
): TokenCounter {
  try {
    const bpe = loadModule(`gpt-tokenizer/encoding/${encoding}`) as Bpe;
    return tokenCounter(encoding, (text) => bpe.countTokens(text, EVERY_SPECIAL_AS_TEXT));
  } catch (e) {
    onFallback(`tokenizer ${encoding} unavailable, estimating prompt sizes by characters: ${(e as Error).message}`);
    return heuristicTokens;
  }
}

/** The counter for a model's family, loaded once per encoding. */
export function tokenCounterFor(model: string): TokenCounter {
  const encoding = encodingForModel(model);
  let counter = counters.get(encoding);
  if (!counter) {
    counter = bpeCounter(encoding);
    counters.set(encoding, counter);
  }
  return counter;
}

/** Each message's tokens plus the tools' (the chat template's few tokens per message are left to the reserve). */
export function estimatePromptTokens(
  messages: readonly ChatMessage[],
  tools: readonly ToolSpec[] = [],
  counter: TokenCounter = heuristicTokens,
): number {
  let total = 0;
  for (const m of messages) total += counter.measure(m);
  return total + (tools.length > 0 ? counter.measure(tools) : 0);
}

/**
 * Throws LlmError `context_overflow` when the prompt's tokens plus `reserveTokens` for the answer exceed
 * `contextWindow`; returns the count otherwise.
 */
export function checkTokenLimit(
  messages: readonly ChatMessage[],
  tools: readonly ToolSpec[],
  contextWindow: number,
  reserveTokens: number,
  counter: TokenCounter = heuristicTokens,
): number {
  const estimatedTokens = estimatePromptTokens(messages, tools, counter);
  if (estimatedTokens + reserveTokens > contextWindow) {
    throw new LlmError(
      'context_overflow',
      `prompt of ~${estimatedTokens} tokens (${counter.encoding}) plus ${reserveTokens} reserved for the answer exceeds the context window of ${contextWindow} tokens; not sent`,
      { estimatedTokens, contextWindow },
    );
  }
  return estimatedTokens;
}

// Usage of one LlmCall as each server reports it: OpenAI's usage object, DeepSeek's cache fields, Groq's x_groq,
// llama.cpp's timings.
import type { LlmUsage } from './types';

interface LooseUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
  /** Moonshot's name for cached prompt tokens. */
  cached_tokens?: number;
  /** DeepSeek's name for cached prompt tokens. */
  prompt_cache_hit_tokens?: number;
}

/** llama.cpp's server: `cache_n` prompt tokens reused from its cache, `prompt_n` evaluated anew, `predicted_n` generated. */
interface LlamaTimings {
  cache_n?: number;
  prompt_n?: number;
  predicted_n?: number;
}

/** The usage-bearing fields of a chunk, whichever a server sends. */
export interface UsageFields {
  usage?: LooseUsage | null;
  /** Groq puts its usage here on the last chunk. */
  x_groq?: { usage?: LooseUsage | null } | null;
  /** llama.cpp adds these to the last chunk, with or without a usage object. */
  timings?: LlamaTimings | null;
}

/** The usage a chunk reports, merged over what earlier chunks of the stream reported; null when none so far. */
export function usageOf(chunk: UsageFields, previous: LlmUsage | null): LlmUsage | null {
  const reported = chunk.usage ?? chunk.x_groq?.usage ?? null;
  const timings = chunk.timings ?? null;
  if (!reported && !timings) return previous;
  const cachedByTimings = count(timings?.cache_n) ?? 0;
  if (!reported) {
    // A usage object outranks timings: timings alone never replace one met earlier in the stream.
    if (previous) return { ...previous, cachedPromptTokens: Math.max(previous.cachedPromptTokens, cachedByTimings) };
    return {
      promptTokens: (count(timings?.prompt_n) ?? 0) + cachedByTimings,
      completionTokens: count(timings?.predicted_n) ?? 0,
      cachedPromptTokens: cachedByTimings,
    };
  }
  const usage: LlmUsage = {
    promptTokens: count(reported.prompt_tokens) ?? 0,
    completionTokens: count(reported.completion_tokens) ?? 0,
    cachedPromptTokens: Math.max(
      count(reported.prompt_tokens_details?.cached_tokens) ?? 0,
      count(reported.prompt_cache_hit_tokens) ?? 0,
      count(reported.cached_tokens) ?? 0,
      cachedByTimings,
    ),
  };
  const reasoning = count(reported.completion_tokens_details?.reasoning_tokens);
  return reasoning === undefined ? usage : { ...usage, reasoningTokens: reasoning };
}

/** A token count when the server sent a usable one (llama.cpp sends -1 for "not measured"). */
function count(value: number | null | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

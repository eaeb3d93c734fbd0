// Test support: the scripted LLM server's usage figures — deterministic token estimates and the cached prompt prefix.
import type { RecordedRequest, ScriptedUsage } from './scripted-llm-server';

/** OpenAI's usage object: the scripted figures where given, else deterministic estimates. */
export function usageOf(req: RecordedRequest, generated: string, cachedChars: number, given: ScriptedUsage = {}) {
  const prompt = given.promptTokens ?? estimateTokens(req.rawBody);
  const completion = given.completionTokens ?? estimateTokens(generated);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: given.cachedTokens ?? Math.min(prompt, Math.floor(cachedChars / 4)) },
  };
}

function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

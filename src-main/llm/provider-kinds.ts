// What each kind of backend is sent: which optional parameters it takes, and which of an assistant message's extras
// (shared interface, types.ts) go back to it. The transcript keeps every extra; only the request body differs.
import type { ProviderKind } from '../../src-shared/contract/profiles';

/**
 * An assistant message's extra that a backend needs back:
 * - `reasoning_content_on_tool_turns`: `reasoning_content` on assistant messages with tool calls (DeepSeek thinking
 *   mode answers 400 without it; docs: api-docs.deepseek.com/guides/thinking_mode — without tool calls it is ignored).
 * - `reasoning_details`: OpenRouter's reasoning blocks, as sent (openrouter.ai/docs, "Preserving reasoning").
 * - `extra_content`: Gemini's thought signatures, on the message and on each call (ai.google.dev/gemini-api/docs/
 *   thought-signatures, OpenAI compatibility).
 */
export type SentBack = 'reasoning_content_on_tool_turns' | 'reasoning_details' | 'extra_content';

export interface ProviderQuirks {
  /** `stream_options: { include_usage: true }` is sent. Mistral answers 422 `extra_forbidden` to it. */
  streamOptions: boolean;
  /** `parallel_tool_calls` is sent when the profile or request sets it. */
  parallelToolCalls: boolean;
  sendBack: readonly SentBack[];
}

export const PROVIDER_QUIRKS: Record<ProviderKind, ProviderQuirks> = {
  generic: { streamOptions: true, parallelToolCalls: true, sendBack: [] },
  openai: { streamOptions: true, parallelToolCalls: true, sendBack: [] },
  openrouter: { streamOptions: true, parallelToolCalls: true, sendBack: ['reasoning_details'] },
  deepseek: { streamOptions: true, parallelToolCalls: false, sendBack: ['reasoning_content_on_tool_turns'] },
  gemini: { streamOptions: true, parallelToolCalls: false, sendBack: ['extra_content'] },
  mistral: { streamOptions: false, parallelToolCalls: true, sendBack: [] },
  groq: { streamOptions: true, parallelToolCalls: true, sendBack: [] },
  llamacpp: { streamOptions: true, parallelToolCalls: true, sendBack: [] },
  ollama: { streamOptions: true, parallelToolCalls: false, sendBack: [] },
  lmstudio: { streamOptions: true, parallelToolCalls: false, sendBack: [] },
  vllm: { streamOptions: true, parallelToolCalls: true, sendBack: [] },
};

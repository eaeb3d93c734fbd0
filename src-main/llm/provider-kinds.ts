// What each kind of backend is sent: which optional parameters it takes, and which of an assistant message's extras
// (shared interface, types.ts) go back to it. The transcript keeps every extra; only the request body differs.
import type { ProviderKind, SentBack } from '../../src-shared/contract/profiles';

export type { SentBack } from '../../src-shared/contract/profiles';

/*
 * Where each kind's extras are documented:
 * - `reasoning_content_on_tool_turns`: DeepSeek (api-docs.deepseek.com/guides/thinking_mode: 400 "The
 *   `reasoning_content` in the thinking mode must be passed back to the API."), Kimi (platform.moonshot.ai/docs/guide/
 *   use-kimi-k2-thinking-model: 400 "thinking is enabled but reasoning_content is missing in assistant tool call
 *   message at index N").
 * - `reasoning_details`: openrouter.ai/docs, "Preserving reasoning".
 * - `extra_content`: ai.google.dev/gemini-api/docs/thought-signatures, OpenAI compatibility (400 "Function call is
 *   missing a thought_signature in functionCall parts").
 */

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
  moonshot: { streamOptions: true, parallelToolCalls: true, sendBack: ['reasoning_content_on_tool_turns'] },
  gemini: { streamOptions: true, parallelToolCalls: false, sendBack: ['extra_content'] },
  mistral: { streamOptions: false, parallelToolCalls: true, sendBack: [] },
  groq: { streamOptions: true, parallelToolCalls: true, sendBack: [] },
  llamacpp: { streamOptions: true, parallelToolCalls: true, sendBack: [] },
  ollama: { streamOptions: true, parallelToolCalls: false, sendBack: [] },
  lmstudio: { streamOptions: true, parallelToolCalls: false, sendBack: [] },
  vllm: { streamOptions: true, parallelToolCalls: true, sendBack: [] },
};

// The LLM layer's vocabulary: chat messages and tools as the OpenAI chat API has them, LlmCall records, results.
import type { CapacityWait } from './capacity';

export interface AssistantToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
  /** Opaque provider fields of the call (Gemini's thought signature), kept byte for byte as sent. */
  extra_content?: unknown;
}

/**
 * What a backend sent beside an assistant message's content that it may need back (issue 12): always kept in the
 * transcript; the request body of each profile kind decides what goes back.
 */
export type AssistantExtras = {
  /** The reasoning text: `reasoning_content` (DeepSeek, Kimi), `reasoning` (OpenRouter, vLLM), or inline `<think>`. */
  reasoning_content?: string;
  /** OpenRouter's structured reasoning blocks, as sent. */
  reasoning_details?: unknown[];
  /** Opaque provider fields of the message (Gemini's `extra_content`), as sent. */
  extra_content?: unknown;
};

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | UserContentPart[] }
  | ({ role: 'assistant'; content: string | null; tool_calls?: AssistantToolCall[] } & AssistantExtras)
  | { role: 'tool'; tool_call_id: string; content: string };

/** A part of a user message with media (the chat API's content parts): tool results' images and audio. */
export type UserContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'input_audio'; input_audio: { data: string; format: 'wav' | 'mp3' } };

/** A message's text: a user message's text parts joined when it has media. */
export const messageText = (content: string | readonly UserContentPart[]): string =>
  typeof content === 'string' ? content : content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');

export interface ToolSpec {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface LlmUsage {
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens the backend served from its prompt cache (0 when it reports none). */
  cachedPromptTokens: number;
  /** Completion tokens spent on reasoning (`completion_tokens_details.reasoning_tokens`), when the backend reports them. */
  reasoningTokens?: number;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call';

export type LlmCallOutcome = 'ok' | 'retryable_error' | 'terminal_error' | 'aborted';

export interface LlmCallStartInfo {
  /** 1-based `llm_call_count`, counted by the client across its generations. */
  callNumber: number;
  /** 1-based within this generate() (= this AgentTurn). Above 1, the previous attempt's deltas are void. */
  attempt: number;
  startedAt: number;
}

/** One LlmCall: one HTTP request and the generation (or failure) it produced. */
export interface LlmCallRecord extends LlmCallStartInfo {
  latencyMs: number;
  /** Time to the first streamed delta of any kind; null when none arrived. */
  ttftMs: number | null;
  /** As reported by the backend; null when it reported none (failed attempts, backends ignoring include_usage). */
  usage: LlmUsage | null;
  outcome: LlmCallOutcome;
  /** Why the call failed, never containing the API key. */
  error?: string;
  /** HTTP status of a failed call, when there was one. */
  status?: number;
  finishReason?: FinishReason;
  /** Backend info: the model that answered and the provider's request id, when sent. */
  model?: string;
  /** The profile the call was made with and the model it asked for: what prices it (src-shared/pricing.ts). */
  profile?: string;
  requestModel?: string;
  requestId?: string;
  /** Set on a retryable failure that will be retried: the wait before the next attempt. */
  retryInMs?: number;
}

export type LlmDelta =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool_call'; index: number; id?: string; name?: string; argumentsDelta: string };

export interface LlmHooks {
  onLlmCallStart?(info: LlmCallStartInfo): void;
  onLlmCallEnd?(record: LlmCallRecord): void;
  /** Deltas of the LlmCall last started. */
  onDelta?(delta: LlmDelta): void;
  /** The next LlmCall waits for the profile's capacity (capacity.ts): a place under its limit, or a server's pause. */
  onCapacityWait?(wait: CapacityWait): void;
}

export interface LlmRequest {
  messages: readonly ChatMessage[];
  tools?: readonly ToolSpec[];
  signal?: AbortSignal;
  /** Overrides the profile's. */
  temperature?: number;
  /** Overrides the profile's. */
  parallelToolCalls?: boolean;
}

export interface LlmToolCall {
  id: string;
  name: string;
  /** The raw JSON text the model produced; parsing and validating it is the caller's job. */
  arguments: string;
  /** Opaque provider fields of the call (AssistantToolCall.extra_content), as sent. */
  extra?: unknown;
}

/** The outcome of one AgentTurn's generation: the last (successful) LlmCall's output, every LlmCall's record. */
export interface LlmResult {
  text: string;
  reasoning: string;
  /** OpenRouter's `reasoning_details`, when sent. */
  reasoningDetails?: unknown[];
  /** Opaque provider fields of the message (`extra_content`), when sent. */
  extra?: unknown;
  /** The model declined (OpenAI's `refusal`), in its own words. */
  refusal?: string;
  toolCalls: LlmToolCall[];
  finishReason: FinishReason;
  /** The AgentTurn's usage: the sum over `calls` of the usage each reported. */
  usage: LlmUsage;
  calls: LlmCallRecord[];
}

// The assistant turn the engine keeps from one reply (issue 12): the message it appends — carrying what the backend
// sent beside the text, as sent — the calls the loop runs (also those the model wrote as text), and what a reply that
// is a refusal or a question means.
import type { AssistantToolCall, LlmResult } from '../llm/types';
import type { AssistantMessage } from './call-pairs';
import { parseTextToolCalls } from './text-tool-calls';
import type { ToolCall } from './tool-dispatch';

/**
 * The content of a reply with neither text nor calls. Never null: servers require content or tool_calls on an
 * assistant message (LM Studio rejects a null content: lmstudio-ai/lmstudio-bug-tracker#261); never blank:
 * Anthropic-backed routes reject empty and whitespace-only text ("all messages must have non-empty content",
 * anthropics/claude-code#4416; "text content blocks must contain non-whitespace text", anthropics/claude-code#23440).
 */
export const EMPTY_REPLY = '(empty reply)';

export interface AssistantTurn {
  message: AssistantMessage;
  toolCalls: ToolCall[];
  /** The refusal this reply is, in the model's words; null when it is none. */
  refusal: string | null;
}

/** `toolNames`: the tools of the request (a bare JSON reply counts as a call only when it names one). */
export function assistantTurn(reply: LlmResult, toolNames: ReadonlySet<string>): AssistantTurn {
  if (reply.refusal?.trim() || reply.finishReason === 'content_filter') {
    const refusal =
      reply.refusal?.trim() || reply.text.trim() || 'the server stopped the reply (finish_reason: content_filter)';
    return {
      message: assistantMessage(reply, nonBlank(reply.text || reply.refusal || ''), []),
      toolCalls: [],
      refusal,
    };
  }
  if (reply.toolCalls.length > 0) {
    return {
      message: assistantMessage(reply, reply.text || null, reply.toolCalls),
      toolCalls: reply.toolCalls,
      refusal: null,
    };
  }
  const written = parseTextToolCalls(reply.text, toolNames);
  if (written) {
    const callNumber = reply.calls.at(-1)?.callNumber ?? 0;
    const calls = written.calls.map((c, i) => ({ id: textCallId(callNumber, i), ...c }));
    return { message: assistantMessage(reply, written.content || null, calls), toolCalls: calls, refusal: null };
  }
  return { message: assistantMessage(reply, nonBlank(reply.text), []), toolCalls: [], refusal: null };
}

/**
 * The id of a call the model wrote as text: nine alphanumerics, the form Mistral requires of every call id
 * (mistral-common's validator, cited in vllm-project/vllm vllm/entrypoints/openai/tool_parsers/mistral_tool_parser.py).
 */
const textCallId = (callNumber: number, index: number) =>
  `txt${String(callNumber).padStart(4, '0')}${String(index).padStart(2, '0')}`;

const nonBlank = (text: string) => (text.trim() ? text : EMPTY_REPLY);

function assistantMessage(reply: LlmResult, content: string | null, calls: ToolCall[]): AssistantMessage {
  return {
    role: 'assistant',
    content,
    ...(reply.reasoning ? { reasoning_content: reply.reasoning } : {}),
    ...(reply.reasoningDetails !== undefined ? { reasoning_details: reply.reasoningDetails } : {}),
    ...(reply.extra !== undefined ? { extra_content: reply.extra } : {}),
    ...(calls.length > 0 ? { tool_calls: calls.map(toolCall) } : {}),
  };
}

const toolCall = (c: ToolCall): AssistantToolCall => ({
  id: c.id,
  type: 'function',
  function: { name: c.name, arguments: c.arguments },
  ...(c.extra !== undefined ? { extra_content: c.extra } : {}),
});

/**
 * Whether a text the model ended on asks the user something: its last character, past closing quotes, brackets,
 * emphasis and spaces, is a question mark (ASCII or full-width). A question inside an answer that goes on does not
 * count: what the text ends with is what the model concluded.
 */
export function isQuestion(text: string): boolean {
  return /[?？][\s"'”’)\]*_`」』]*$/.test(text);
}

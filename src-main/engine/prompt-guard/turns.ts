// How the prompt guard sees a conversation: turns (an assistant message and the results of its calls) and the
// pairing of tool calls with their results, which every rewrite must keep whole.
import type { TokenCounter } from '../../llm/tokens';
import type { ChatMessage } from '../../llm/types';

/** Indices of the assistant messages: each begins a turn. */
export function turnStarts(messages: readonly ChatMessage[]): number[] {
  const starts: number[] = [];
  messages.forEach((m, i) => {
    if (m.role === 'assistant') starts.push(i);
  });
  return starts;
}

/** Where the last `keep` turns begin (the guard never shortens them); 1 when there are no more turns than that. */
export function protectedFrom(messages: readonly ChatMessage[], keep: number): number {
  if (keep <= 0) return messages.length;
  const starts = turnStarts(messages);
  return starts.length <= keep ? 1 : (starts[starts.length - keep] as number);
}

/** Each tool call of the assistant messages by id: its name and raw arguments. */
export function callsById(messages: readonly ChatMessage[]): Map<string, { name: string; arguments: string }> {
  const calls = new Map<string, { name: string; arguments: string }>();
  for (const m of messages) {
    if (m.role !== 'assistant' || !m.tool_calls) continue;
    for (const c of m.tool_calls) calls.set(c.id, { name: c.function.name, arguments: c.function.arguments });
  }
  return calls;
}

/** Whether messages from `index` on can follow a new beginning: no result there answers a call made before it. */
export function startsCleanly(messages: readonly ChatMessage[], index: number): boolean {
  if (messages[index]?.role !== 'assistant') return false;
  const before = new Set(callsById(messages.slice(0, index)).keys());
  return !messages.slice(index).some((m) => m.role === 'tool' && before.has(m.tool_call_id));
}

/**
 * The longest head of `text` (cut as safeSlice cuts) within `maxTokens`. A character is usually at most one token, so
 * that many characters are tried first; rare characters that a BPE splits further shrink it until it fits.
 */
export function headWithinTokens(text: string, maxTokens: number, tokens: TokenCounter): string {
  if (tokens.count(text) <= maxTokens) return text;
  let head = safeSlice(text, 0, Math.max(0, maxTokens));
  while (head.length > 0 && tokens.count(head) > maxTokens) head = safeSlice(head, 0, Math.floor(head.length * 0.8));
  return head;
}

/** Cuts `text` to at most `chars` UTF-16 units without splitting a surrogate pair. */
export function safeSlice(text: string, start: number, end: number): string {
  const at = (i: number) => {
    const code = text.charCodeAt(i);
    return i > 0 && i < text.length && code >= 0xdc00 && code <= 0xdfff ? i - 1 : i;
  };
  return text.slice(at(Math.max(0, start)), at(Math.min(text.length, end)));
}

// Which result answers which call in a conversation — read one way by replay (spec 3.3), by a resumed job and by its
// approvals: a result answers the first unanswered call of its id in the latest assistant message that used the id
// (ids repeat: servers number calls per reply, and a Continue replays several jobs' calls).
import type { AssistantToolCall, ChatMessage } from '../llm/types';
import { EMPTY_REPLY } from './assistant-reply';
import type { ToolCall } from './tool-dispatch';

export type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;
export type ToolMessage = Extract<ChatMessage, { role: 'tool' }>;

export interface Pairing {
  /** The result of a call, by identity. */
  get(call: AssistantToolCall): ToolMessage | undefined;
  /** The call a result answers, or undefined for an orphan result. */
  result(message: ToolMessage): AssistantToolCall | undefined;
}

export function pairResults(messages: readonly ChatMessage[]): Pairing {
  const pending = new Map<string, AssistantToolCall[]>();
  const resultOf = new Map<AssistantToolCall, ToolMessage>();
  const callOf = new Map<ToolMessage, AssistantToolCall>();
  for (const m of messages) {
    if (m.role === 'assistant') {
      const byId = new Map<string, AssistantToolCall[]>();
      for (const c of m.tool_calls ?? []) byId.set(c.id, [...(byId.get(c.id) ?? []), c]);
      for (const [id, calls] of byId) pending.set(id, calls);
    } else if (m.role === 'tool') {
      const call = pending.get(m.tool_call_id)?.shift();
      if (call) {
        resultOf.set(call, m);
        callOf.set(m, call);
      }
    }
  }
  return { get: (call) => resultOf.get(call), result: (message) => callOf.get(message) };
}

/** The calls that have no result yet, in order. */
export function unansweredCalls(messages: readonly ChatMessage[]): ToolCall[] {
  const pairs = pairResults(messages);
  return messages.flatMap((m) =>
    m.role === 'assistant'
      ? (m.tool_calls ?? [])
          .filter((c) => !pairs.get(c))
          .map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }))
      : [],
  );
}

/**
 * Drops calls without results, results without calls, and assistant messages left empty. Calls in `waiting` (a
 * person decided them; they are answered next) are kept. An assistant message that never had calls and has no text
 * (an empty reply recorded before replies were kept non-empty) gets EMPTY_REPLY: no server takes `content: null`.
 */
export function dropUnanswered(
  messages: readonly ChatMessage[],
  waiting: ReadonlySet<string> = new Set(),
): ChatMessage[] {
  const pairs = pairResults(messages);
  const out: ChatMessage[] = [];
  for (const m of messages) {
    if (m.role === 'assistant' && m.tool_calls) {
      const calls = m.tool_calls.filter((c) => pairs.get(c) || waiting.has(c.id));
      const { tool_calls: _drop, ...rest } = m;
      if (calls.length === 0 && !m.content) continue;
      out.push(calls.length > 0 ? { ...rest, tool_calls: calls } : rest);
    } else if (m.role === 'tool') {
      if (pairs.result(m)) out.push(m);
    } else if (m.role === 'assistant' && !m.content?.trim()) out.push({ ...m, content: EMPTY_REPLY });
    else out.push(m);
  }
  return out;
}

// Prompt guard step 1 (P4.15): a tool result identical to the result of a later identical call (same name,
// canonical arguments and content) is replaced by a short marker; the latest stays. Oldest first, until under target.
import { callKey } from '../tool-cache';
import type { Draft } from './draft';
import { callsById } from './turns';

export const DEDUP_MARKER = '[same result as a later call]';

/** Returns how many results it replaced. */
export function dedup(draft: Draft, targetTokens: number): number {
  const calls = callsById(draft.messages);
  const keys = draft.messages.map((m) => {
    if (m.role !== 'tool' || m.content.length <= DEDUP_MARKER.length) return null;
    const call = calls.get(m.tool_call_id);
    return call ? `${callKey(call.name, call.arguments)}\u0000${m.content}` : null;
  });
  const latest = new Map<string, number>();
  keys.forEach((key, i) => {
    if (key !== null) latest.set(key, i);
  });
  let changed = 0;
  for (let i = 0; i < keys.length && draft.tokens > targetTokens; i++) {
    const key = keys[i];
    const m = draft.messages[i];
    if (key === null || key === undefined || latest.get(key) === i || m?.role !== 'tool') continue;
    draft.replace(i, { ...m, content: DEDUP_MARKER });
    changed++;
  }
  return changed;
}

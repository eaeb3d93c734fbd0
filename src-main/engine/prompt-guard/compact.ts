// Prompt guard step 2 (P4.16): older tool results are cut to their head and tail with a note of what was left out,
// oldest first, until under target; results in the last turns are never touched.
import type { Draft } from './draft';
import { protectedFrom, safeSlice } from './turns';

export interface CompactOptions {
  /** Turns at the end left whole. */
  keepTurns: number;
  headChars: number;
  tailChars: number;
}

export const compactNote = (omitted: number): string =>
  `[… ${omitted} characters of this tool result omitted by the prompt guard; call the tool again if you need them …]`;

/** Room for the note: content at most this much longer than head + tail is left as it is (so is compacted text). */
const SLACK = 200;

/** `content` cut to head + note + tail, or null when it is not much longer than that (already compacted, say). */
export function compactText(content: string, headChars: number, tailChars: number): string | null {
  if (content.length <= headChars + tailChars + SLACK) return null;
  const head = safeSlice(content, 0, headChars);
  const tail = safeSlice(content, content.length - tailChars, content.length);
  return `${head}\n${compactNote(content.length - head.length - tail.length)}\n${tail}`;
}

/** Returns how many results it shortened. */
export function compact(draft: Draft, targetTokens: number, options: CompactOptions): number {
  const end = protectedFrom(draft.messages, options.keepTurns);
  let changed = 0;
  for (let i = 1; i < end && draft.tokens > targetTokens; i++) {
    const m = draft.messages[i];
    if (m?.role !== 'tool') continue;
    const content = compactText(m.content, options.headChars, options.tailChars);
    if (content === null) continue;
    draft.replace(i, { ...m, content });
    changed++;
  }
  return changed;
}

// A stopped job's place in the chat (issue 23): the steps it recorded after the person stopped it — the turn it was
// writing, cut where they stopped it — are marked stopped, and the system's note of the stop follows them rather than
// standing above them (the note is written when the stop is asked for; the cut turn is recorded a moment later).
import type { ChatStep } from '../../../src-shared/entities';
import { type ChatItem, isStep } from '../store/chat-items';

export interface StoppedItems {
  /** The items, each note of a stop after the steps its job recorded once stopped. */
  items: readonly ChatItem[];
  /** The ids of those steps. */
  stopped: ReadonlySet<string>;
}

const NONE: ReadonlySet<string> = new Set();

const isStopNote = (item: ChatItem) => !isStep(item) && item.notice?.code === 'cancelled' && item.author === 'system';

export function stoppedInPlace(items: readonly ChatItem[]): StoppedItems {
  if (!items.some(isStopNote)) return { items, stopped: NONE };
  const stopped = new Set<string>();
  const out: ChatItem[] = [];
  /** Notes of a stop waiting for their job's steps to pass, by job. */
  const held = new Map<string, { note: ChatItem; after: number }>();
  const lastStepAfter = new Map<ChatItem, ChatStep>();
  // First pass: the last step of each noted job that comes after its note.
  items.forEach((item, i) => {
    if (isStopNote(item) && item.jobId) held.set(item.jobId, { note: item, after: i });
    else if (isStep(item)) {
      const waiting = held.get(item.jobId);
      if (waiting && i > waiting.after) {
        stopped.add(item.id);
        lastStepAfter.set(waiting.note, item);
      }
    }
  });
  if (stopped.size === 0) return { items, stopped: NONE };
  const moved = new Map<ChatStep, ChatItem[]>();
  for (const [note, step] of lastStepAfter) moved.set(step, [...(moved.get(step) ?? []), note]);
  for (const item of items) {
    if (lastStepAfter.has(item)) continue;
    out.push(item);
    if (isStep(item)) out.push(...(moved.get(item) ?? []));
  }
  return { items: out, stopped };
}

// The chat's items: a task's comments and its steps (recorded AgentTurns) in one order, as the server pages them —
// by time, and within one millisecond a person's comment, then the agent's step, then the agent's or the system's
// comment (src-main/db/repos/chat-pages.ts).
import type { ChatStep, Comment } from '../../../src-shared/entities';

export type ChatItem = Comment | ChatStep;

export const isStep = (item: ChatItem): item is ChatStep => 'seq' in item;

const rank = (item: ChatItem) => (isStep(item) ? 1 : item.author === 'user' ? 0 : 2);

/** Negative when `a` comes first. Items of the same time and rank keep the order they came in (sort is stable). */
export function itemOrder(a: ChatItem, b: ChatItem): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return rank(a) - rank(b) || (isStep(a) && isStep(b) ? a.seq - b.seq : 0);
}

/** Comments and steps (each oldest first) as one list in the chat's order. */
export function chatItems(comments: readonly Comment[], steps: readonly ChatStep[]): ChatItem[] {
  if (steps.length === 0) return comments as Comment[];
  return [...comments, ...steps].sort(itemOrder);
}

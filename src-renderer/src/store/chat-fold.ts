// How copies of one record fold together: a page read a moment before a pushed change must not undo it (the later
// job, the decided request, the step with its answers), and a latest page never leaves a gap in the chat loaded.
import type { ChatStep, Comment, Job } from '../../../src-shared/entities';
import { type ChatItem, chatItems, isStep } from './chat-items';
import { mergeById } from './merge';

type ChatRange = { comments: readonly Comment[]; steps: readonly ChatStep[]; olderCount: number };

/** The first item loaded (the anchor of the page before it). */
export function firstItem(chat: Pick<ChatRange, 'comments' | 'steps'>): ChatItem | undefined {
  const [comment] = chat.comments;
  const [step] = chat.steps;
  if (!comment || !step) return comment ?? step;
  return chatItems([comment], [step])[0];
}

/** `step` with the answers `known` has for calls `step` has none for. */
export function withAnswers(step: ChatStep, known: ChatStep): ChatStep {
  return {
    ...step,
    toolCalls: step.toolCalls.map((c) =>
      c.result ? c : { ...c, result: known.toolCalls.find((k) => k.id === c.id)?.result ?? null },
    ),
  };
}

/** A step read again keeps the answers already folded into it from events (a page is a moment earlier). */
export function keepAnswers(known: ChatStep, fresh: ChatStep): ChatStep {
  return withAnswers(fresh, known);
}

/** An answer that left the server before a pushed change must not undo it: the later updatedAt wins. */
export function newerJob(known: Job, fresh: Job): Job {
  return fresh.updatedAt < known.updatedAt ? known : fresh;
}

/** A decision is final: an answer that left the server before it must not bring the pending copy back. */
export function decidedWins<R extends { status: string }>(known: R, fresh: R): R {
  return known.status !== 'pending' ? known : fresh;
}

/**
 * The latest page folded into the items loaded (comments and steps). When it overlaps them (or starts at the task's
 * first item), the two are merged and the earlier pages loaded stay. When it does not (the first answer, or one after
 * a disconnection during which more than a page arrived), the items loaded before it are dropped, so the list never
 * has a gap; those pushed after the answer left the server are kept.
 */
export function foldLatestPage(current: ChatRange, page: ChatRange): ChatRange {
  const items = chatItems(page.comments, page.steps);
  const first = items[0];
  const last = items.at(-1);
  const merged = () => ({
    comments: mergeById(current.comments, page.comments),
    steps: mergeById(current.steps, page.steps, keepAnswers),
  });
  if (!first || !last) return { comments: current.comments, steps: current.steps, olderCount: 0 };
  if (page.olderCount === 0) return { ...merged(), olderCount: 0 };
  const known = isStep(first) ? current.steps : current.comments;
  if (known.some((i) => i.id === first.id)) return { ...merged(), olderCount: current.olderCount };
  const pushed = <T extends ChatItem>(list: readonly T[]) => list.filter((i) => i.createdAt >= last.createdAt);
  return {
    comments: mergeById(page.comments, pushed(current.comments)),
    steps: mergeById(page.steps, pushed(current.steps), keepAnswers),
    olderCount: page.olderCount,
  };
}

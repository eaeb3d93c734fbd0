// The two tools that end a step: `complete` (every piece) and `transition` (pieces with transitions; its enum is the
// union of targets over the whole piece so the tools array stays byte-stable across movements).
import { z } from 'zod';
import { type PieceDefinition, transitionTargets } from './pieces/schema';

export const COMPLETE = 'complete';
export const TRANSITION = 'transition';

/** Quick replies a question may offer: the person clicks one instead of typing it. */
export const CHOICES_MAX = 6;
export const CHOICE_MAX_CHARS = 80;

/** `complete`'s arguments as the model is told them (its JSON schema). */
export const CompleteArgs = z.strictObject({
  status: z.enum(['success', 'needs_user_input', 'failure']),
  message: z.string().min(1, 'must say what was done, what to ask, or why it failed'),
  choices: z
    .array(z.string().min(1).max(CHOICE_MAX_CHARS))
    .max(CHOICES_MAX)
    .optional()
    .describe(
      `only with "needs_user_input": up to ${CHOICES_MAX} short answers (each at most ${CHOICE_MAX_CHARS} ` +
        'characters) the user can pick with one click; they can still type their own',
    ),
});
export type CompleteArgs = z.infer<typeof CompleteArgs>;

/**
 * How `complete` is read: like CompleteArgs, but choices that break its rules do not refuse the call — they are
 * dropped (questionChoices), so a sloppy list never costs the person the question.
 */
export const CompleteCall = CompleteArgs.extend({ choices: z.unknown().optional() });

/** The choices worth offering: trimmed, non-blank strings of at most CHOICE_MAX_CHARS, each once, the first CHOICES_MAX. */
export function questionChoices(raw: unknown): string[] {
  if (!Array.isArray(raw)) return [];
  const kept: string[] = [];
  for (const item of raw) {
    if (typeof item !== 'string') continue;
    const choice = item.trim();
    if (choice === '' || choice.length > CHOICE_MAX_CHARS || kept.includes(choice)) continue;
    kept.push(choice);
    if (kept.length === CHOICES_MAX) break;
  }
  return kept;
}

export const completeDescription =
  'End this task. status "success": the work is done, message = a short summary for the user. ' +
  'status "needs_user_input": you need the user\'s answer to go on, message = your question; when the answer is ' +
  'one of a few options, list them in choices. ' +
  'status "failure": the task cannot be done, message = why.';

export function transitionArgs(piece: PieceDefinition) {
  const targets = transitionTargets(piece);
  return z.strictObject({
    next: z.enum(targets as [string, ...string[]]),
    reason: z.string().optional(),
  });
}

export const transitionDescription =
  'Move on to another movement of this piece. Only the movements allowed from the current one are accepted; ' +
  'reason = what the next movement needs to know.';

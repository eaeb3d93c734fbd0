// The two tools that end a step: `complete` (every piece) and `transition` (pieces with transitions; its enum is the
// union of targets over the whole piece so the tools array stays byte-stable across movements).
import { z } from 'zod';
import { type PieceDefinition, transitionTargets } from './pieces/schema';

export const COMPLETE = 'complete';
export const TRANSITION = 'transition';

export const CompleteArgs = z.strictObject({
  status: z.enum(['success', 'needs_user_input', 'failure']),
  message: z.string().min(1, 'must say what was done, what to ask, or why it failed'),
});
export type CompleteArgs = z.infer<typeof CompleteArgs>;

export const completeDescription =
  'End this task. status "success": the work is done, message = a short summary for the user. ' +
  'status "needs_user_input": you need the user\'s answer to go on, message = your question. ' +
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

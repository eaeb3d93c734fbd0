// The loop guards' state of one job lineage, as it is stored beside the job (job_guards): what the movement, iteration
// and call guards have counted, so a park, a retry or a restart continues the count instead of starting it over.
import { z } from 'zod';

/** The counts of the movement the job is in: they go on when it resumes there, and start over in the next one. */
export const MovementCounts = z.object({
  name: z.string(),
  iterations: z.number().int().nonnegative(),
  /** Replies without a tool call in a row, and the latest non-blank text among them. */
  textOnly: z.number().int().nonnegative(),
  lastText: z.string(),
  /** Iterations since the last progress (a first successful call), for the watchdog. */
  sinceProgress: z.number().int().nonnegative(),
});
export type MovementCounts = z.infer<typeof MovementCounts>;

export const LoopState = z.object({
  /** Movements entered, each movement's entries, and the movements that ended in a transition (loop monitors). */
  entered: z.number().int().nonnegative(),
  visits: z.record(z.string(), z.number().int().nonnegative()),
  history: z.array(z.string()),
  movement: MovementCounts.nullable(),
  /** How often each call (a digest of its name and arguments) was made. */
  calls: z.record(z.string(), z.number().int().positive()),
  /**
   * The structured results of routed movements (TAKT's `structured.<step>`), by movement name: what the engine's
   * when() rules read, kept here so a park, a retry or a restart still has them. Absent in states stored before.
   */
  structured: z.record(z.string(), z.unknown()).optional(),
});
export type LoopState = z.infer<typeof LoopState>;

/** How a state's call counts changed since it was last saved: cleared (a new Invoke), and the calls counted since. */
export interface CallChanges {
  cleared: boolean;
  counted: ReadonlySet<string>;
}

/**
 * The state as it is now, for a save made a moment later (write-behind.ts): what the loop changes in place at the next
 * iteration's start is copied. The call counts are not (hundreds in a long lineage): they change only when a reply is
 * counted, after the save.
 */
export const stateAsOfNow = (state: LoopState): LoopState => ({
  ...state,
  visits: { ...state.visits },
  history: [...state.history],
  movement: state.movement && { ...state.movement },
  ...(state.structured ? { structured: { ...state.structured } } : {}),
});

export const freshLoopState = (): LoopState => ({ entered: 0, visits: {}, history: [], movement: null, calls: {} });

export const freshCounts = (name: string): MovementCounts => ({
  name,
  iterations: 0,
  textOnly: 0,
  lastText: '',
  sinceProgress: 0,
});

/** Reads a stored state; what does not parse is an error naming the job and the field (never a silent reset). */
export function parseLoopState(json: string, jobId: string): LoopState {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new Error(`job ${jobId}: its loop guards' state is not JSON (${(error as Error).message})`);
  }
  const parsed = LoopState.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `job ${jobId}: its loop guards' state is broken at ${issue?.path.join('.') || 'the top'}: ${issue?.message}`,
    );
  }
  return parsed.data;
}

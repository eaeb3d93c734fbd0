// The movement guard (TAKT's CycleDetector): every movement entered counts toward the piece's `max_movements` (P3.08)
// and each movement's own entries toward its `revisit_limit` (P3.09), over the job's whole lineage.
import type { LoopState } from './loop-state';

export type MovementLimit = 'max_movements' | 'revisit_limit';

export type Entry =
  /** `iteration`: movements entered so far, this one included (TAKT's {iteration}); `stepIteration`: its entries. */
  | { kind: 'entered'; iteration: number; stepIteration: number }
  | { kind: 'limit'; limit: MovementLimit; message: string };

export interface MovementLimits {
  maxMovements: number;
  revisitLimit: number;
}

export class MovementGuard {
  constructor(
    private readonly state: Pick<LoopState, 'entered' | 'visits'>,
    private readonly limits: MovementLimits,
  ) {}

  /** Counts an entry into `name`; the limit it passes, when it passes one (the state keeps the count either way). */
  enter(name: string): Entry {
    const entered = ++this.state.entered;
    const seen = (this.state.visits[name] ?? 0) + 1;
    this.state.visits[name] = seen;
    const { maxMovements, revisitLimit } = this.limits;
    if (entered > maxMovements) {
      const message = `movement loop: ${entered - 1} movements entered, the piece allows ${maxMovements} (max_movements)`;
      return { kind: 'limit', limit: 'max_movements', message };
    }
    if (seen - 1 > revisitLimit) {
      const message = `movement loop: ${name} was revisited more than ${revisitLimit} times (revisit_limit)`;
      return { kind: 'limit', limit: 'revisit_limit', message };
    }
    return { kind: 'entered', iteration: entered, stepIteration: seen };
  }

  /** What {iteration} and {step_iteration} would be on entering `name` next. */
  upcoming(name: string): { iteration: number; stepIteration: number } {
    return { iteration: this.state.entered + 1, stepIteration: (this.state.visits[name] ?? 0) + 1 };
  }

  /** The counts of the movement entered last (a resumed job's instruction is filled with them). */
  current(name: string): { iteration: number; stepIteration: number } {
    return { iteration: this.state.entered, stepIteration: this.state.visits[name] ?? 0 };
  }
}

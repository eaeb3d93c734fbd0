// A job run's loop guards over one loop state: the movement guard, the call guard and, per movement, the iteration
// guard. The state is the lineage's (job-journal.ts stores it); a delegated sub-agent's guards keep theirs in memory.
import type { EngineLimits } from '../job-run';
import type { MovementDefinition, PieceDefinition } from '../pieces/schema';
import { CallLoopGuard } from './call-loop-guard';
import { IterationGuard } from './iteration-guard';
import { type CallChanges, freshCounts, freshLoopState, type LoopState } from './loop-state';
import { MovementGuard } from './movement-guard';

export class LoopGuards {
  readonly movements: MovementGuard;
  readonly calls: CallLoopGuard;
  /** The call counts were cleared since the last takeCallChanges(). */
  private cleared = false;

  constructor(
    readonly state: LoopState,
    piece: Pick<PieceDefinition, 'maxMovements' | 'revisitLimit'>,
    private readonly limits: EngineLimits,
  ) {
    this.movements = new MovementGuard(state, piece);
    this.calls = new CallLoopGuard(state.calls, limits.repeatedCalls);
  }

  /** Guards of a run that keeps nothing (a delegated sub-agent): counted from zero. */
  static fresh(limits: EngineLimits): LoopGuards {
    return new LoopGuards(freshLoopState(), { maxMovements: Number.MAX_SAFE_INTEGER, revisitLimit: Infinity }, limits);
  }

  /** True when the lineage was last in `name` and the run picks it up there (not a new entry). */
  resumesIn(name: string): boolean {
    return this.state.entered > 0 && this.state.movement?.name === name;
  }

  /** Entering `name`: its counts start over. */
  entering(name: string): void {
    this.state.movement = freshCounts(name);
  }

  /**
   * New input from outside (a Send, an answer, the subtasks' results: a new Invoke): the call counts and the movement's
   * streaks start over. The movements entered, their visits and iterations are the lineage's and go on.
   */
  newInvoke(): void {
    for (const key of Object.keys(this.state.calls)) delete this.state.calls[key];
    this.cleared = true;
    if (this.state.movement) Object.assign(this.state.movement, { textOnly: 0, lastText: '', sinceProgress: 0 });
  }

  /** How the call counts changed since the last take: a save writes those, not every call of the lineage. */
  takeCallChanges(): CallChanges {
    const changes = { cleared: this.cleared, counted: this.calls.takeCounted() };
    this.cleared = false;
    return changes;
  }

  /** A movement that ended in a transition, for the loop monitors. */
  ended(name: string): void {
    this.state.history.push(name);
  }

  /** The iteration guard of `movement`, over its counts (kept when the job is in it, fresh otherwise). */
  iterations(movement: MovementDefinition): IterationGuard {
    if (this.state.movement?.name !== movement.name) this.state.movement = freshCounts(movement.name);
    const { textOnlyReplies, watchdogIterations } = this.limits;
    return new IterationGuard(this.state.movement, {
      maxIterations: movement.maxIterations,
      textOnlyReplies,
      watchdogIterations,
    });
  }
}

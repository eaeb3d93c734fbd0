// The iteration guard of one movement: its `max_iterations` (P4.13), the text-only replies in a row, and the watchdog
// that warns after iterations without progress (P4.12). Its counts are the movement's in the job's loop state.
import type { MovementCounts } from './loop-state';

export interface IterationLimits {
  maxIterations: number;
  textOnlyReplies: number;
  watchdogIterations: number;
}

export class IterationGuard {
  constructor(
    private readonly counts: MovementCounts,
    private readonly limits: IterationLimits,
  ) {}

  /** At the loop's top: one more iteration — past the limit, or due a watchdog warning (which restarts its count). */
  next(): 'go' | 'watchdog' | 'limit' {
    this.counts.iterations++;
    if (this.counts.iterations > this.limits.maxIterations) return 'limit';
    if (this.counts.sinceProgress >= this.limits.watchdogIterations) {
      this.counts.sinceProgress = 0;
      return 'watchdog';
    }
    return 'go';
  }

  /** A reply without a tool call: 'stop' once the nudges are spent (the streak's text is `lastText`). */
  textOnly(text: string): 'nudge' | 'stop' {
    this.counts.textOnly++;
    this.counts.sinceProgress++;
    this.counts.lastText = text.trim() || this.counts.lastText;
    return this.counts.textOnly > this.limits.textOnlyReplies ? 'stop' : 'nudge';
  }

  /** A reply with calls ends a text-only streak. */
  called(): void {
    this.counts.textOnly = 0;
    this.counts.lastText = '';
  }

  /** The calls' results are in: progress restarts the watchdog's count. */
  settled(progressed: boolean): void {
    this.counts.sinceProgress = progressed ? 0 : this.counts.sinceProgress + 1;
  }

  /** A streak that ended the movement (a question, the result) is over: the person's answer starts a new one. */
  streakEnded(): void {
    this.called();
  }

  get textReplies(): number {
    return this.counts.textOnly;
  }

  get lastText(): string {
    return this.counts.lastText;
  }
}

// A profile's capacity for LlmCalls, shared by every job that uses the profile: at most its limit of calls at once
// (the profile's maxConcurrentCalls), and a pause for all of them when the server says it is saturated (a 429, with
// or without Retry-After; x-ratelimit-remaining-requests at 0). Calls wait their turn in order instead of failing,
// and after a 429 they start again one more at a time as calls succeed (additive increase after a halving, as TCP
// does), never as a burst of every waiting job at once.
import { setTimeout as sleep } from 'node:timers/promises';
import { backoffMs } from '../../src-shared/backoff';

/** What a call is waiting for: a free place under the profile's limit, or the end of the server's pause. */
export type CapacityWait = { reason: 'limit' } | { reason: 'rate_limited'; untilMs: number };

/** Backoff after 429s that gave no Retry-After: 1 s, 2 s, 4 s … up to a minute, each with jitter. */
const THROTTLE_BACKOFF = { baseDelayMs: 1_000, maxDelayMs: 60_000 };
/** A server's Retry-After (or rate-limit reset) is honoured up to this. */
const MAX_PAUSE_MS = 5 * 60_000;

export class CapacityAborted extends Error {
  constructor() {
    super('cancelled while waiting for the model');
  }
}

export class ProfileCapacity {
  private active = 0;
  /** How many calls may run now: the limit, halved by a 429 and grown back by one per success. */
  private allowance: number;
  private readonly waiting: (() => void)[] = [];
  private pausedUntil = 0;
  /** 429s since the last success, for the backoff when the server gives no Retry-After. */
  private throttles = 0;

  constructor(
    private limit: number = Number.POSITIVE_INFINITY,
    private readonly now: () => number = Date.now,
    private readonly random: () => number = Math.random,
  ) {
    this.allowance = limit;
  }

  /** The profile was edited: its new limit applies to the next calls. */
  setLimit(limit: number = Number.POSITIVE_INFINITY): void {
    if (limit === this.limit) return;
    this.limit = limit;
    this.allowance = Math.min(Math.max(this.allowance, 1), limit);
    this.wake();
  }

  /** Calls running now. */
  get running(): number {
    return this.active;
  }

  /**
   * Resolves with the release of a place once the call may start; `onWait` hears each time it has to wait and why.
   * Rejects with CapacityAborted when `signal` aborts meanwhile (nothing held then).
   */
  async acquire(signal?: AbortSignal, onWait?: (wait: CapacityWait) => void): Promise<() => void> {
    // A timer may fire a millisecond before the clock it was set from says it should: the same pause waited out
    // again is not told twice.
    let toldUntil = 0;
    for (let first = true; ; first = false) {
      if (signal?.aborted) throw new CapacityAborted();
      const pause = this.pausedUntil - this.now();
      if (pause > 0) {
        if (this.pausedUntil !== toldUntil) onWait?.({ reason: 'rate_limited', untilMs: this.pausedUntil });
        toldUntil = this.pausedUntil;
        try {
          await sleep(pause, undefined, { signal });
        } catch {
          throw new CapacityAborted();
        }
        continue;
      }
      // Whoever waited longest goes first: a newcomer does not overtake the queue.
      if (this.active < this.allowance && (first ? this.waiting.length === 0 : true)) {
        this.active++;
        let released = false;
        return () => {
          if (released) return;
          released = true;
          this.active--;
          this.wake();
        };
      }
      onWait?.({ reason: 'limit' });
      await this.queue(signal);
    }
  }

  /** The call succeeded: the server has room again. */
  succeeded(): void {
    this.throttles = 0;
    if (this.allowance < this.limit) {
      this.allowance++;
      this.wake();
    }
  }

  /**
   * The server answered 429: every call of the profile pauses for its Retry-After (or a jittered backoff), and the
   * calls allowed at once are halved. A 429 without Retry-After during a pause belongs to it. Returns the pause in ms.
   */
  throttled(retryAfterMs: number | undefined): number {
    // The other calls of the same burst meet the same 429: one pause, one halving, one step of backoff for them all.
    const left = this.pausedUntil - this.now();
    if (left > 0 && retryAfterMs === undefined) return left;
    this.throttles++;
    const pause =
      retryAfterMs !== undefined
        ? Math.min(retryAfterMs, MAX_PAUSE_MS)
        : backoffMs(this.throttles, THROTTLE_BACKOFF, this.random);
    this.pauseFor(pause);
    this.allowance = Math.max(1, Math.floor(Math.min(this.allowance, Math.max(this.active, 1)) / 2));
    return pause;
  }

  /**
   * A response's rate-limit headers (OpenAI's and most compatible servers' `x-ratelimit-*`): no requests left means
   * a pause until the window resets, before the server has to refuse anything.
   */
  observe(headers: Headers): void {
    if (headers.get('x-ratelimit-remaining-requests')?.trim() !== '0') return;
    const reset = durationMs(headers.get('x-ratelimit-reset-requests'));
    if (reset !== undefined && reset > 0) this.pauseFor(Math.min(reset, MAX_PAUSE_MS));
  }

  private pauseFor(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
  }

  private queue(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const at = this.waiting.indexOf(wake);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(new CapacityAborted());
      };
      const wake = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      this.waiting.push(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Lets the waiters that now fit try again, longest waiting first. */
  private wake(): void {
    let room = this.allowance - this.active;
    while (room-- > 0 && this.waiting.length > 0) this.waiting.shift()?.();
  }
}

/**
 * A rate-limit reset as servers write it: seconds (`"20"`, `"0.5"`) or a duration (`"1s"`, `"6m0s"`, `"250ms"`,
 * `"1h2m3.5s"`); undefined when unreadable.
 */
export function durationMs(value: string | null): number | undefined {
  if (!value) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) return undefined;
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
  return parts.reduce((sum, p) => sum + Number(p[1]) * unit[p[2] as keyof typeof unit], 0);
}

/** One capacity per profile name, kept across edits of the profile (its limit follows them). */
export class ProfileCapacities {
  private readonly byName = new Map<string, ProfileCapacity>();

  of(profile: { name: string; maxConcurrentCalls?: number }): ProfileCapacity {
    let capacity = this.byName.get(profile.name);
    if (!capacity) {
      capacity = new ProfileCapacity(profile.maxConcurrentCalls);
      this.byName.set(profile.name, capacity);
    } else capacity.setLimit(profile.maxConcurrentCalls);
    return capacity;
  }
}

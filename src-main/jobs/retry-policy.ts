// When a failed attempt is tried again: exponential backoff with jitter, up to a number of attempts; an outage of the
// model server is waited out without using attempts up.
import type { Backoff } from '../../src-shared/backoff';

export interface OutagePolicy extends Backoff {
  /** An outage longer than this is no longer waited out: its attempts count again, up to maxAttempts. */
  giveUpAfterMs: number;
}

export interface RetryPolicy extends Backoff {
  maxAttempts: number;
  /** Default DEFAULT_OUTAGE_POLICY. */
  outage?: OutagePolicy;
}

export const DEFAULT_OUTAGE_POLICY: OutagePolicy = {
  baseDelayMs: 5_000,
  maxDelayMs: 5 * 60_000,
  giveUpAfterMs: 24 * 60 * 60_000,
};

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 2_000,
  maxDelayMs: 5 * 60_000,
  outage: DEFAULT_OUTAGE_POLICY,
};

/**
 * The wait before trying a server that has been unreachable for `outageMs`: as long again (so the waits double while
 * it lasts), within the policy's bounds, times a jitter in [0.5, 1) so jobs waiting on one server do not all wake
 * together.
 */
export function outageWaitMs(outageMs: number, policy: Backoff, random: () => number = Math.random): number {
  const wait = Math.min(policy.maxDelayMs, Math.max(policy.baseDelayMs, outageMs));
  return Math.round(wait * (0.5 + 0.5 * random()));
}

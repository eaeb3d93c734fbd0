// When a failed attempt is tried again: exponential backoff with jitter, up to a number of attempts.
export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 2_000, maxDelayMs: 5 * 60_000 };

/** Delay before attempt `attempt + 1`: base·2^(attempt−1), capped, scaled by a jitter factor in [0.5, 1). */
export function retryDelayMs(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exponential * (0.5 + random() * 0.5));
}

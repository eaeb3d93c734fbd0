// When a failed attempt is tried again: exponential backoff with jitter, up to a number of attempts.
import type { Backoff } from '../../src-shared/backoff';

export interface RetryPolicy extends Backoff {
  maxAttempts: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 2_000, maxDelayMs: 5 * 60_000 };

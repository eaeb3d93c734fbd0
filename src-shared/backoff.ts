// Exponential backoff with jitter, the one formula behind every "try again later": an LlmCall's retry and a job's.
export interface Backoff {
  baseDelayMs: number;
  maxDelayMs: number;
}

/** The wait before try number `attempt + 1` (attempt ≥ 1): base·2^(attempt−1), capped, times a jitter in [0.5, 1). */
export function backoffMs(attempt: number, backoff: Backoff, random: () => number = Math.random): number {
  const exponential = Math.min(backoff.maxDelayMs, backoff.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exponential * (0.5 + 0.5 * random()));
}

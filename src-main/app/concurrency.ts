// How many jobs one host runs at once: 16 by default (jobs mostly wait on their model, and each profile's own limit
// and its server's 429s hold back what one model cannot take: llm/capacity.ts), or what `--concurrency` or
// MAESTRO_CONCURRENCY says.
export const DEFAULT_CONCURRENCY = 16;
const MAX_CONCURRENCY = 256;

/** `value` as a job count, or the default when absent; a value that is not 1..256 throws, naming `source`. */
export function concurrencyFrom(value: string | undefined, source: string): number {
  if (value === undefined || value.trim() === '') return DEFAULT_CONCURRENCY;
  const n = Number(value.trim());
  if (!Number.isInteger(n) || n < 1 || n > MAX_CONCURRENCY) {
    throw new Error(`${source} must be a whole number of jobs from 1 to ${MAX_CONCURRENCY}, got "${value}"`);
  }
  return n;
}

/** How long a running job's lease lasts without a heartbeat (its host presumed dead after): 30 s by default. */
export const DEFAULT_LEASE_SECONDS = 30;

/**
 * The lease of MAESTRO_LEASE_SECONDS (2..3600; default 30) as the Worker's stale window and heartbeat: a host beats
 * six times per lease, so a job is recovered by another host within two leases of its host's death.
 */
export function leaseFrom(
  value: string | undefined,
  source: string,
): { staleAfterMs: number; heartbeatIntervalMs: number } {
  const seconds = value === undefined || value.trim() === '' ? DEFAULT_LEASE_SECONDS : Number(value.trim());
  if (!Number.isFinite(seconds) || seconds < 2 || seconds > 3600)
    throw new Error(`${source} must be a number of seconds from 2 to 3600, got "${value}"`);
  return { staleAfterMs: seconds * 1000, heartbeatIntervalMs: (seconds * 1000) / 6 };
}

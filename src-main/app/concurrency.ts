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

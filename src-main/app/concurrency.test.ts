// How many jobs a host runs at once: the default, a flag or variable that says otherwise, and a bad value refused
// with where it came from.
import { describe, expect, it } from 'vitest';
import { concurrencyFrom, DEFAULT_CONCURRENCY } from './concurrency';

describe('concurrencyFrom', () => {
  it('is 16 unless told otherwise', () => {
    expect(DEFAULT_CONCURRENCY).toBe(16);
    expect(concurrencyFrom(undefined, 'MAESTRO_CONCURRENCY')).toBe(16);
    expect(concurrencyFrom(' ', 'MAESTRO_CONCURRENCY')).toBe(16);
    expect(concurrencyFrom('32', '--concurrency')).toBe(32);
  });

  it('refuses a count that is not 1 to 256, naming the flag or variable', () => {
    for (const bad of ['0', '-3', '2.5', 'many', '257']) {
      expect(() => concurrencyFrom(bad, '--concurrency')).toThrow(
        `--concurrency must be a whole number of jobs from 1 to 256, got "${bad}"`,
      );
    }
  });
});

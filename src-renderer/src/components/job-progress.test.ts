// When a job's next attempt is, as the retry notice says it: relative, in the UI's language, in the largest unit.
import { describe, expect, it } from 'vitest';
import { relativeTime } from './JobProgress';

describe('relativeTime', () => {
  it('says seconds, minutes, hours and days ahead, in English and Japanese', () => {
    expect(relativeTime(42_000, 'en')).toBe('in 42 seconds');
    expect(relativeTime(3 * 60_000 + 10_000, 'en')).toBe('in 3 minutes');
    expect(relativeTime(2 * 3_600_000, 'en')).toBe('in 2 hours');
    expect(relativeTime(36 * 3_600_000, 'en')).toBe('in 2 days');
    expect(relativeTime(42_000, 'ja')).toBe('42 秒後');
    expect(relativeTime(5 * 60_000, 'ja')).toBe('5 分後');
  });
});

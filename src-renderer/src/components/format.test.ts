// formatTime: the day's time today, the date on another day, in the UI's language, from cached formatters.
import { describe, expect, it } from 'vitest';
import { formatTime } from './format';

describe('formatTime', () => {
  const now = new Date(2026, 11, 2, 18, 30);

  it('shows the time for today and the date for another day, in the language asked for', () => {
    const today = new Date(2026, 11, 2, 14, 5).toISOString();
    const earlier = new Date(2026, 10, 1, 9, 0).toISOString();
    expect(formatTime(today, 'en', now)).toMatch(/^0?2:05\sPM$/);
    expect(formatTime(today, 'ja', now)).toBe('14:05');
    expect(formatTime(earlier, 'en', now)).toBe('Nov 1');
    expect(formatTime(earlier, 'ja', now)).toBe('11月1日');
  });

  it('gives the same text as toLocale*String with the same options (the cache changes nothing but the cost)', () => {
    for (const iso of [new Date(2026, 11, 2, 0, 1).toISOString(), new Date(2025, 0, 31, 23, 59).toISOString()]) {
      const date = new Date(iso);
      const same = date.toDateString() === now.toDateString();
      for (const locale of ['en', 'ja'] as const) {
        const expected = same
          ? date.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' })
          : date.toLocaleDateString(locale, { month: 'short', day: 'numeric' });
        expect(formatTime(iso, locale, now)).toBe(expected);
      }
    }
  });

  it('gives back text that is not a time as it is', () => {
    expect(formatTime('not a time', 'en', now)).toBe('not a time');
  });
});

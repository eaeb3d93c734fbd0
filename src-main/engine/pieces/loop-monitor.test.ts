import { describe, expect, it } from 'vitest';
import { dueLoopMonitor, trailingRepeats } from './loop-monitor';

const monitor = { cycle: ['review', 'fix'], ignore: [], threshold: 2, judge: 'loop-check-1' };

describe('loop checks', () => {
  it('counts how often the cycle repeats back to back at the end of the history', () => {
    expect(trailingRepeats(['plan', 'review', 'fix', 'review', 'fix'], ['review', 'fix'])).toBe(2);
    expect(trailingRepeats(['review', 'fix', 'review'], ['review', 'fix'])).toBe(0);
    expect(trailingRepeats(['fix', 'review', 'fix'], ['review', 'fix'])).toBe(1);
    expect(trailingRepeats([], ['review'])).toBe(0);
  });

  it('a monitor is due once its threshold is reached; the judge in the history starts the count again', () => {
    expect(dueLoopMonitor([monitor], ['review', 'fix'])).toBeNull();
    expect(dueLoopMonitor([monitor], ['review', 'fix', 'review', 'fix'])).toEqual({ monitor, count: 2 });
    expect(dueLoopMonitor([monitor], ['review', 'fix', 'review', 'fix', 'loop-check-1', 'review', 'fix'])).toBeNull();
  });

  it('ignored movements do not break the cycle', () => {
    const withVerify = { ...monitor, ignore: ['verify'] };
    const history = ['review', 'fix', 'verify', 'review', 'fix', 'verify'];
    expect(dueLoopMonitor([monitor], history)).toBeNull();
    expect(dueLoopMonitor([withVerify], history)).toEqual({ monitor: withVerify, count: 2 });
  });
});

// The iteration guard alone: max_iterations (P4.13), the text-only streak and the watchdog, over counts it is given.
import { describe, expect, it } from 'vitest';
import { IterationGuard } from './iteration-guard';
import { freshCounts } from './loop-state';

const limits = { maxIterations: 3, textOnlyReplies: 2, watchdogIterations: 2 };

describe('IterationGuard', () => {
  it('P4.13 the iteration past max_iterations is the limit; counts given from a stored state go on', () => {
    const counts = { ...freshCounts('work'), iterations: 2 };
    const guard = new IterationGuard(counts, limits);
    expect(guard.next()).toBe('go');
    expect(guard.next()).toBe('limit');
    expect(counts.iterations).toBe(4);
  });

  it('P4.24 a text-only streak stops after its nudges, keeping its last non-blank text; a call ends it', () => {
    const counts = freshCounts('work');
    const guard = new IterationGuard(counts, { ...limits, maxIterations: 100 });
    expect(guard.textOnly('first')).toBe('nudge');
    expect(guard.textOnly('  ')).toBe('nudge');
    expect(guard.textOnly('')).toBe('stop');
    expect([guard.textReplies, guard.lastText]).toEqual([3, 'first']);
    guard.called();
    expect(counts).toMatchObject({ textOnly: 0, lastText: '' });
  });

  it('P4.12 the watchdog is due after iterations without progress, once, then counts again', () => {
    const counts = freshCounts('work');
    const guard = new IterationGuard(counts, { ...limits, maxIterations: 100 });
    guard.next();
    guard.settled(false);
    guard.next();
    guard.settled(false);
    expect(guard.next()).toBe('watchdog');
    expect(counts.sinceProgress).toBe(0);
    guard.settled(false);
    guard.settled(true);
    expect(counts.sinceProgress).toBe(0);
    expect(guard.next()).toBe('go');
  });
});

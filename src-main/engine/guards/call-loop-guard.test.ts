// The tool-loop guard alone: the same call (name + arguments) counted toward the limit, other arguments apart, the
// state holding digests, never the arguments themselves.
import { describe, expect, it } from 'vitest';
import { CallLoopGuard } from './call-loop-guard';

describe('CallLoopGuard', () => {
  it('P4.27 the same call reaching the limit is a loop; another call is counted apart', () => {
    const calls: Record<string, number> = {};
    const guard = new CallLoopGuard(calls, 3);
    expect(guard.count('read_file {"path":"a"}')).toEqual({ times: 1, loop: false });
    expect(guard.count('read_file {"path":"b"}')).toEqual({ times: 1, loop: false });
    expect(guard.count('read_file {"path":"a"}')).toEqual({ times: 2, loop: false });
    expect(guard.count('read_file {"path":"a"}')).toEqual({ times: 3, loop: true });
    expect(guard.times('read_file {"path":"b"}')).toBe(1);
    expect(JSON.stringify(calls)).not.toContain('path');
  });

  it('P4.13 a guard over the stored counts (after a retry or a restart) goes on from them', () => {
    const calls: Record<string, number> = {};
    new CallLoopGuard(calls, 5).count('x {}');
    new CallLoopGuard(calls, 5).count('x {}');
    const stored = JSON.parse(JSON.stringify(calls));
    const again = new CallLoopGuard(stored, 3);
    expect(again.count('x {}')).toEqual({ times: 3, loop: true });
  });
});

// The guards of a run over one state: a job resuming in the movement it was in keeps that movement's counts, one that
// enters another starts them over, and a new Invoke clears only the call counts and the text-only streak.
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../job-run';
import type { MovementDefinition } from '../pieces/schema';
import { LoopGuards } from './loop-guards';
import { freshLoopState } from './loop-state';

const movement = (name: string) => ({ name, maxIterations: 10 }) as MovementDefinition;
const piece = { maxMovements: 10, revisitLimit: 10 };

describe('LoopGuards', () => {
  it('a resumed run keeps its movement’s counts; entering another starts them over', () => {
    const state = freshLoopState();
    const first = new LoopGuards(state, piece, DEFAULT_LIMITS);
    expect(first.resumesIn('a')).toBe(false);
    first.movements.enter('a');
    first.entering('a');
    first.iterations(movement('a')).next();
    first.iterations(movement('a')).textOnly('hm');

    const resumed = new LoopGuards(JSON.parse(JSON.stringify(state)), piece, DEFAULT_LIMITS);
    expect(resumed.resumesIn('a')).toBe(true);
    expect(resumed.resumesIn('b')).toBe(false);
    expect(resumed.state.movement).toMatchObject({ name: 'a', iterations: 1, textOnly: 1, lastText: 'hm' });
    resumed.iterations(movement('b'));
    expect(resumed.state.movement).toMatchObject({ name: 'b', iterations: 0, textOnly: 0 });
  });

  it('a new Invoke clears the call counts and the streak, not the movements, visits or iterations', () => {
    const guards = new LoopGuards(freshLoopState(), piece, DEFAULT_LIMITS);
    guards.movements.enter('a');
    guards.entering('a');
    const iterations = guards.iterations(movement('a'));
    iterations.next();
    iterations.textOnly('hm');
    guards.calls.count('x {}');
    guards.calls.count('x {}');
    guards.newInvoke();
    expect(guards.calls.times('x {}')).toBe(0);
    expect(guards.calls.count('x {}').times).toBe(1);
    expect(guards.state).toMatchObject({ entered: 1, visits: { a: 1 } });
    expect(guards.state.movement).toMatchObject({ iterations: 1, textOnly: 0, lastText: '', sinceProgress: 0 });
  });
});

// The movement guard alone: entries count toward max_movements and each movement's toward its revisit limit, the
// limit named; the counts live in the state it was given, so a guard over a stored state goes on from there.
import { describe, expect, it } from 'vitest';
import { freshLoopState } from './loop-state';
import { MovementGuard } from './movement-guard';

describe('MovementGuard', () => {
  it('P3.08 counts every entry toward max_movements and names the limit past it', () => {
    const state = freshLoopState();
    const guard = new MovementGuard(state, { maxMovements: 3, revisitLimit: 10 });
    expect(guard.enter('a')).toEqual({ kind: 'entered', iteration: 1, stepIteration: 1 });
    expect(guard.enter('b')).toEqual({ kind: 'entered', iteration: 2, stepIteration: 1 });
    expect(guard.enter('a')).toEqual({ kind: 'entered', iteration: 3, stepIteration: 2 });
    expect(guard.enter('b')).toEqual({
      kind: 'limit',
      limit: 'max_movements',
      message: 'movement loop: 3 movements entered, the piece allows 3 (max_movements)',
    });
  });

  it('P3.09 counts one movement’s entries toward its revisit limit', () => {
    const guard = new MovementGuard(freshLoopState(), { maxMovements: 100, revisitLimit: 1 });
    expect(guard.enter('a').kind).toBe('entered');
    expect(guard.enter('a').kind).toBe('entered');
    expect(guard.enter('b').kind).toBe('entered');
    expect(guard.enter('a')).toMatchObject({
      kind: 'limit',
      limit: 'revisit_limit',
      message: /a was revisited more than 1 times/,
    });
  });

  it('a guard over a stored state goes on counting from it (a park, a retry, a restart)', () => {
    const state = freshLoopState();
    new MovementGuard(state, { maxMovements: 4, revisitLimit: 10 }).enter('a');
    const stored = JSON.parse(JSON.stringify(state));
    const again = new MovementGuard(stored, { maxMovements: 4, revisitLimit: 10 });
    expect(again.upcoming('a')).toEqual({ iteration: 2, stepIteration: 2 });
    expect(again.current('a')).toEqual({ iteration: 1, stepIteration: 1 });
    expect(again.enter('b')).toEqual({ kind: 'entered', iteration: 2, stepIteration: 1 });
    expect(stored).toMatchObject({ entered: 2, visits: { a: 1, b: 1 } });
  });
});

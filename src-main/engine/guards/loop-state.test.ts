// The stored loop state read back: a broken one is an error naming the job and the field, never a silent reset.
import { describe, expect, it } from 'vitest';
import { freshLoopState, parseLoopState } from './loop-state';

describe('parseLoopState', () => {
  it('reads back what was stored', () => {
    const state = { ...freshLoopState(), entered: 3, visits: { a: 2, b: 1 }, history: ['a', 'b'] };
    expect(parseLoopState(JSON.stringify(state), 'j1')).toEqual(state);
  });

  it('refuses what is not JSON, or not the state, naming the job and where', () => {
    expect(() => parseLoopState('{', 'j1')).toThrow(/^job j1: its loop guards' state is not JSON/);
    const broken = { ...freshLoopState(), entered: -1 };
    expect(() => parseLoopState(JSON.stringify(broken), 'j1')).toThrow(/^job j1: .* broken at entered:/);
    const badCounts = { ...freshLoopState(), movement: { name: 'a', iterations: 'many' } };
    expect(() => parseLoopState(JSON.stringify(badCounts), 'j2')).toThrow(/job j2: .* at movement\.iterations/);
  });
});

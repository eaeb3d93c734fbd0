// The engine bench's arithmetic: iterations from arrivals, windows of turns, prefix reuse.
import { describe, expect, it } from 'vitest';
import { prefixReuse } from './prefix';
import { clientGaps, iterationTimes, turnWindow, windowMedian } from './turns';

describe('engine bench arithmetic', () => {
  it("reads turn k's iteration as request k's arrival minus request k − 1's", () => {
    expect(iterationTimes([100, 101.5, 104, 104.25])).toEqual([1.5, 2.5, 0.25]);
  });

  it("reads the client's part of turn k as request k's arrival minus reply k − 1's end, skipping unstreamed replies", () => {
    expect(clientGaps([100, 121, 143, 165], [120, 142.5, null, 186])).toEqual([1, 0.5]);
  });

  it('takes a window of turns around a turn, kept inside the job', () => {
    expect(turnWindow(10, 210, 5)).toEqual({ turn: 10, first: 5, last: 15 });
    expect(turnWindow(200, 210, 5)).toEqual({ turn: 200, first: 195, last: 205 });
    expect(turnWindow(200, 29, 5)).toEqual({ turn: 24, first: 19, last: 29 });
    expect(turnWindow(2, 29, 5)).toEqual({ turn: 6, first: 1, last: 11 });
  });

  it("takes the median over the window's turns only", () => {
    const perTurn = [50, 1, 2, 3, 50, 50];
    expect(windowMedian(perTurn, { turn: 3, first: 2, last: 4 })).toBe(2);
  });

  it('measures the share of each prompt that the next one repeats, and where it is least', () => {
    const body = (messages: string[]) => JSON.stringify({ tools: [], messages });
    const bodies = [body(['a']), body(['a', 'b']), body(['x', 'b', 'c'])];
    const { shares, worstAt } = prefixReuse(bodies);
    expect(shares[0]).toBe('[]["a"'.length / '[]["a"]'.length);
    expect(shares[1]).toBe('[]["'.length / '[]["a","b"]'.length);
    expect(worstAt).toBe(2);
  });
});

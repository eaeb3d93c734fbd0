// Turns of a job read from the server's arrival times: each iteration's time, and windows of turns to take medians in.
import { median } from './figures';
import { WINDOW_HALF_WIDTH } from './options';

/**
 * Each iteration's time: element k − 1 is turn k's, from request k − 1 arriving (its reply, the tool call, what the
 * client does with both) to request k arriving.
 */
export function iterationTimes(arrivals: readonly number[]): number[] {
  return arrivals.slice(1).map((at, i) => at - (arrivals[i] as number));
}

/**
 * The client's part of each iteration: from a reply's last byte leaving the server to the next request arriving
 * (reading the end of the reply, its tools, recording the step, building and sending the next request).
 */
export function clientGaps(arrivals: readonly number[], replies: readonly (number | null)[]): number[] {
  return arrivals.slice(1).flatMap((at, i) => {
    const replied = replies[i];
    return replied === null || replied === undefined ? [] : [at - replied];
  });
}

/** The turns of a window, 1-based and inclusive, around `turn` and kept inside a job's `turns` iterations. */
export interface TurnWindow {
  turn: number;
  first: number;
  last: number;
}

export function turnWindow(turn: number, turns: number, halfWidth = WINDOW_HALF_WIDTH): TurnWindow {
  const centre = Math.max(1 + halfWidth, Math.min(turn, turns - halfWidth));
  return { turn: centre, first: centre - halfWidth, last: centre + halfWidth };
}

/** Median of `perTurn` (element k − 1 is turn k's) over the window's turns. */
export const windowMedian = (perTurn: readonly number[], w: TurnWindow) => median(perTurn.slice(w.first - 1, w.last));

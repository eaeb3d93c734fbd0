// The loop check of a piece (TAKT's loop_monitors): when the movements of a cycle have just run `threshold` times in a
// row, the monitor's judge movement is entered instead of the next one, and decides how to go on.
import type { LoopMonitor } from './schema';

/** How often `cycle` repeats, back to back, at the end of `history`. */
export function trailingRepeats(history: readonly string[], cycle: readonly string[]): number {
  let count = 0;
  for (let end = history.length; end - cycle.length >= 0; end -= cycle.length) {
    const chunk = history.slice(end - cycle.length, end);
    if (!chunk.every((name, i) => name === cycle[i])) break;
    count++;
  }
  return count;
}

/** The first monitor whose cycle has reached its threshold at the end of `history` (movements that ended), if any. */
export function dueLoopMonitor(
  monitors: readonly LoopMonitor[],
  history: readonly string[],
): { monitor: LoopMonitor; count: number } | null {
  for (const monitor of monitors) {
    const ignored = new Set(monitor.ignore);
    const count = trailingRepeats(
      history.filter((name) => !ignored.has(name)),
      monitor.cycle,
    );
    if (count >= monitor.threshold) return { monitor, count };
  }
  return null;
}

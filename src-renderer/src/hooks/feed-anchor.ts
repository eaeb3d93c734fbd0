// The feed's reading anchor, as plain arithmetic over the rows' tops: which row the view is anchored on, where the view
// must go when rows came in above that row (an earlier page of the conversation), and the rows kept rendered besides
// the visible ones (the focused row). The layout itself (heights, offsets, visible range) is @tanstack/react-virtual's.

export interface Anchor {
  key: string;
  index: number;
  /** The view's top minus the row's top. */
  delta: number;
}

interface Placed {
  key: string | number | bigint;
  index: number;
  start: number;
  end: number;
}

/** A row a focused feed keeps rendered: farther than this from the viewport it is let go. */
export const KEEP_FOCUSED_MAX_ROWS = 200;

/**
 * The row the view is anchored on: the first one reaching below its top, or the next one when that is the feed's first
 * row (a row that stays first, like the one that loads earlier rows, would not show that rows came in under it).
 */
export function anchorAt(items: readonly Placed[], top: number): Anchor | null {
  const first = items.findIndex((item) => item.end > top);
  if (first === -1) return null;
  const pick = items[first]?.index === 0 && items[first + 1] ? items[first + 1] : items[first];
  if (!pick) return null;
  return { key: String(pick.key), index: pick.index, delta: top - pick.start };
}

/**
 * The view's top that puts the anchor back where it was, when rows before it came or went; null when none did.
 * `indexOf` finds a row's index by key (−1 when it is gone), `startOf` gives a row's top.
 */
export function movedAnchor(
  anchor: Anchor | null,
  keyAt: (index: number) => string | undefined,
  indexOf: (key: string) => number,
  startOf: (index: number) => number,
): number | null {
  if (!anchor || keyAt(anchor.index) === anchor.key) return null;
  const index = indexOf(anchor.key);
  if (index === -1) return null;
  return Math.max(0, startOf(index) + anchor.delta);
}

/** The rendered indexes with the focused row added, unless it is far from them (then it is let go). */
export function withFocused(indexes: number[], focused: number): number[] {
  if (focused < 0 || indexes.length === 0 || indexes.includes(focused)) return indexes;
  const lo = indexes[0] as number;
  const hi = indexes.at(-1) as number;
  if (focused < lo - KEEP_FOCUSED_MAX_ROWS || focused > hi + KEEP_FOCUSED_MAX_ROWS) return indexes;
  return focused < lo ? [focused, ...indexes] : [...indexes, focused];
}

// useFeedVirtualizer: the chat feed's rows on @tanstack/react-virtual — only the rows near the viewport rendered,
// each estimated once by its key and then measured as it renders (a <details> opening included), the focused row
// kept rendered while the reader scrolls away from it.
import { defaultRangeExtractor, type Range, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useMemo, useState } from 'react';
import { withFocused } from './feed-anchor';
import type { FeedScroll, Keyed } from './feed-scroll';

/** Rows rendered beyond each edge of the viewport, so a quick scroll or a Page Down finds rows already there. */
export const OVERSCAN_ROWS = 8;
/** Room above the first row and below the last. */
const END_PADDING_PX = 12;

/** `estimate` is read once per row key: a row's first estimate stands until it is measured. */
export function useFeedVirtualizer<Row extends Keyed>(
  rows: readonly Row[],
  estimate: (row: Row) => number,
  scroll: FeedScroll,
  options: { shown: boolean; focusedKey: string | null },
): Virtualizer<HTMLElement, HTMLElement> {
  const [estimates] = useState(() => new Map<string, number>());
  const getItemKey = useCallback((index: number) => rows[index]?.key ?? index, [rows]);
  const estimateSize = useCallback(
    (index: number) => {
      const row = rows[index];
      if (!row) return 0;
      let size = estimates.get(row.key);
      if (size === undefined) {
        size = estimate(row);
        estimates.set(row.key, size);
      }
      return size;
    },
    [rows, estimates, estimate],
  );
  const { focusedKey } = options;
  const focusedIndex = useMemo(
    () => (focusedKey === null ? -1 : rows.findIndex((r) => r.key === focusedKey)),
    [rows, focusedKey],
  );
  const rangeExtractor = useCallback(
    (range: Range) => withFocused(defaultRangeExtractor(range), focusedIndex),
    [focusedIndex],
  );

  return useVirtualizer<HTMLElement, HTMLElement>({
    count: rows.length,
    getScrollElement: () => scroll.scroller.current,
    estimateSize,
    getItemKey,
    rangeExtractor,
    overscan: OVERSCAN_ROWS,
    paddingStart: END_PADDING_PX,
    paddingEnd: END_PADDING_PX,
    measureElement: exactHeight,
    // A row measured (a step replacing its turn, a streamed part growing) re-renders in React's own time, not
    // synchronously inside the resize callback: a long answer arriving is not one long main-thread task.
    useFlushSync: false,
    enabled: options.shown,
    // Opened (or shown again) at the bottom, or where the reader was: the first rows rendered are those.
    initialOffset: () => (scroll.pinned.current ? Number.MAX_SAFE_INTEGER : scroll.lastTop.current),
  });
}

/**
 * A row's height as laid out, fractions kept: rounded heights add up to a few pixels of drift over the rows above
 * the anchor, which moves what the reader sees when an earlier page comes in. A hidden feed (its tab) lays its rows
 * out at 0: they keep the height they had.
 */
function exactHeight(
  element: HTMLElement,
  entry: ResizeObserverEntry | undefined,
  instance: Virtualizer<HTMLElement, HTMLElement>,
): number {
  const height = entry?.borderBoxSize[0]?.blockSize ?? element.getBoundingClientRect().height;
  if (height > 0) return height;
  const index = instance.indexFromElement(element);
  return instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? instance.options.estimateSize(index);
}

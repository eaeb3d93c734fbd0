// useVirtualFeed: the chat feed — its rows virtualized (useFeedVirtualizer), pinned to its bottom until the reader
// scrolls up (useFeedPin), its scroller kept through being hidden (useFeedScroller) — and, here, the anchor: rows
// added above the ones shown (an earlier page of the conversation) put the view back on the row that was at its top,
// so what the reader sees does not move.
import type { VirtualItem } from '@tanstack/react-virtual';
import {
  type KeyboardEvent,
  type RefCallback,
  type UIEvent,
  useCallback,
  useLayoutEffect,
  useRef,
  useState,
  type WheelEvent,
} from 'react';
import { type Anchor, anchorAt, movedAnchor } from './feed-anchor';
import { type Keyed, useFeedScroll } from './feed-scroll';
import { useFeedPin } from './useFeedPin';
import { useFeedScroller } from './useFeedScroller';
import { OVERSCAN_ROWS, useFeedVirtualizer } from './useFeedVirtualizer';

export interface VirtualFeed {
  /** For the scrolling element. */
  scrollerRef: RefCallback<HTMLElement>;
  onScroll(event: UIEvent<HTMLElement>): void;
  /** The reader's intent to move up (wheel, keys), seen before the scroll it causes. */
  onWheel(event: WheelEvent<HTMLElement>): void;
  onKeyDown(event: KeyboardEvent<HTMLElement>): void;
  /** For each rendered row's element, which must carry `data-index` (its index in the rows). */
  measureRef: (element: HTMLElement | null) => void;
  /** The rows rendered, each with its top. */
  items: VirtualItem[];
  /** The height of all rows. */
  totalSize: number;
  /** The first row is among those near the viewport (not only rendered because it holds the focus). */
  nearStart: boolean;
  /** True while the feed follows its bottom. */
  pinned: boolean;
  /** Follows the bottom again (the reader's own comment, say). */
  follow(): void;
  /** The reader asked for the latest: follows the bottom, the focus kept in the feed. */
  jumpToLatest(): void;
  /** Notes the row holding the focus, which then stays rendered while the reader scrolls. */
  onRowFocus(key: string | null): void;
}

/** `estimate` is read once per row key: a row's first estimate stands until it is measured. */
export function useVirtualFeed<Row extends Keyed>(rows: readonly Row[], estimate: (row: Row) => number): VirtualFeed {
  const scroll = useFeedScroll();
  const [focusedKey, setFocusedKey] = useState<string | null>(null);
  const { shown, scrollerRef } = useFeedScroller(scroll);
  const virtualizer = useFeedVirtualizer(rows, estimate, scroll, { shown, focusedKey });
  const toTop = useCallback(() => virtualizer.scrollToOffset(0), [virtualizer]);
  const pin = useFeedPin(scroll, toTop);
  /** The row at the top of the view after the last render. */
  const anchor = useRef<Anchor | null>(null);
  const { held } = scroll;

  // Laid out for the current rows (which brings measurementsCache up to date).
  let items = virtualizer.getVirtualItems();
  // Rows added above the anchor: the view goes where the anchor went, in this render already (the virtualizer's
  // offset) and on the scroller after it.
  const restored = pin.pinned
    ? null
    : movedAnchor(
        anchor.current,
        (index) => rows[index]?.key,
        (key) => rows.findIndex((r) => r.key === key),
        (index) => virtualizer.measurementsCache[index]?.start ?? 0,
      );
  if (restored !== null && anchor.current) {
    const key = anchor.current.key;
    held.current = { key, index: rows.findIndex((r) => r.key === key) };
    virtualizer.scrollOffset = restored;
    items = virtualizer.getVirtualItems();
  }
  // A row measured for the first time above the view's top moves the view with it (the virtualizer's rule); while a
  // row is held, so does any row above that one, in view or not, so that the held row stays exactly where it was.
  virtualizer.shouldAdjustScrollPositionOnItemSizeChange = held.current
    ? (item) => item.index < (held.current?.index ?? 0)
    : undefined;

  // After every render: pinned, the feed shows its bottom (new text, a row measured taller, a taller composer);
  // with rows added above, it shows the anchor where it was. Then the anchor is taken again.
  useLayoutEffect(() => {
    const el = scroll.scroller.current;
    if (!el) return;
    if (scroll.pinned.current) {
      el.scrollTop = el.scrollHeight;
      scroll.lastTop.current = el.scrollTop;
    } else if (restored !== null) {
      // Where the virtualizer has the view by now: the rows above the anchor that were measured as they mounted
      // (rarely as tall as estimated) have moved it on from `restored` by what they were off.
      el.scrollTop = virtualizer.scrollOffset ?? restored;
      scroll.lastTop.current = el.scrollTop;
    }
    if (held.current && !items.some((item) => item.key === held.current?.key)) held.current = null;
    anchor.current = anchorAt(items, scroll.pinned.current ? (virtualizer.scrollOffset ?? 0) : el.scrollTop);
  });

  return {
    scrollerRef,
    onScroll: pin.onScroll,
    onWheel: pin.onWheel,
    onKeyDown: pin.onKeyDown,
    measureRef: virtualizer.measureElement,
    items,
    totalSize: virtualizer.getTotalSize(),
    nearStart: virtualizer.range !== null && virtualizer.range.startIndex <= OVERSCAN_ROWS,
    pinned: pin.pinned,
    follow: pin.follow,
    jumpToLatest: pin.jumpToLatest,
    onRowFocus: setFocusedKey,
  };
}

// useVirtualFeed: the chat feed's rows on @tanstack/react-virtual (only the rows near the viewport rendered, each
// measured as it renders, a <details> opening included), and what a chat adds to it: the feed is pinned to its bottom
// (new text keeps it there) until the reader scrolls up, and pinned again when they reach the bottom or call
// jumpToLatest; rows added above the ones shown (an earlier page of the conversation) put the view back on the row
// that was at its top, so what the reader sees does not move; the focused row stays rendered while they scroll.
import {
  defaultRangeExtractor,
  type Range,
  useVirtualizer,
  type VirtualItem,
  type Virtualizer,
} from '@tanstack/react-virtual';
import {
  type KeyboardEvent,
  type RefCallback,
  type UIEvent,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type WheelEvent,
} from 'react';
import { type Anchor, anchorAt, movedAnchor, withFocused } from './feed-anchor';

/** Rows rendered beyond each edge of the viewport, so a quick scroll or a Page Down finds rows already there. */
const OVERSCAN_ROWS = 8;
/** Room above the first row and below the last. */
const END_PADDING_PX = 12;
/** This close to the bottom counts as at the bottom. */
const PIN_SLACK_PX = 24;
/** Keys that scroll a focused feed up. */
const UP_KEYS = new Set(['ArrowUp', 'PageUp']);

interface Keyed {
  key: string;
}

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
  const scroller = useRef<HTMLElement | null>(null);
  const [estimates] = useState(() => new Map<string, number>());
  const [pinned, setPinnedState] = useState(true);
  const pinnedRef = useRef(true);
  const lastTop = useRef(0);
  const [focusedKey, setFocusedKey] = useState<string | null>(null);
  /** False while the feed is hidden (behind its tab): laid out at 0, it has no rows to show nor a scroll position. */
  const [shown, setShown] = useState(true);
  /** The row at the top of the view after the last render. */
  const anchor = useRef<Anchor | null>(null);
  /** After a page came in above: the row the view holds on to, while it is rendered and the reader does not move. */
  const held = useRef<(Keyed & { index: number }) | null>(null);

  const setPinned = useCallback((value: boolean) => {
    pinnedRef.current = value;
    setPinnedState(value);
  }, []);

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
  const focusedIndex = useMemo(
    () => (focusedKey === null ? -1 : rows.findIndex((r) => r.key === focusedKey)),
    [rows, focusedKey],
  );
  const rangeExtractor = useCallback(
    (range: Range) => withFocused(defaultRangeExtractor(range), focusedIndex),
    [focusedIndex],
  );

  const virtualizer = useVirtualizer<HTMLElement, HTMLElement>({
    count: rows.length,
    getScrollElement: () => scroller.current,
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
    enabled: shown,
    // Opened (or shown again) at the bottom, or where the reader was: the first rows rendered are those.
    initialOffset: () => (pinnedRef.current ? Number.MAX_SAFE_INTEGER : lastTop.current),
  });

  // Laid out for the current rows (which brings measurementsCache up to date).
  let items = virtualizer.getVirtualItems();
  // Rows added above the anchor: the view goes where the anchor went, in this render already (the virtualizer's
  // offset) and on the scroller after it.
  const restored = pinned
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
    const el = scroller.current;
    if (!el) return;
    if (pinnedRef.current) {
      el.scrollTop = el.scrollHeight;
      lastTop.current = el.scrollTop;
    } else if (restored !== null) {
      // Where the virtualizer has the view by now: the rows above the anchor that were measured as they mounted
      // (rarely as tall as estimated) have moved it on from `restored` by what they were off.
      el.scrollTop = virtualizer.scrollOffset ?? restored;
      lastTop.current = el.scrollTop;
    }
    if (held.current && !items.some((item) => item.key === held.current?.key)) held.current = null;
    anchor.current = anchorAt(items, pinnedRef.current ? (virtualizer.scrollOffset ?? 0) : el.scrollTop);
  });

  // Hidden (its tab) and shown again, the scroller has lost its scroll position: it gets it back.
  const [observer] = useState(
    () =>
      new ResizeObserver((entries) => {
        for (const entry of entries) {
          const el = entry.target as HTMLElement;
          const hidden = entry.contentRect.height === 0;
          if (!hidden) el.scrollTop = pinnedRef.current ? el.scrollHeight : lastTop.current;
          setShown(!hidden);
        }
      }),
  );
  useEffect(() => () => observer.disconnect(), [observer]);

  const scrollerRef = useCallback<RefCallback<HTMLElement>>(
    (el) => {
      scroller.current = el;
      if (!el) return;
      observer.observe(el);
      return () => {
        observer.unobserve(el);
        scroller.current = null;
      };
    },
    [observer],
  );

  // A render between the reader's scroll and its scroll event would pull them back down: their intent unpins first.
  const letGo = useCallback(
    (el: HTMLElement) => {
      held.current = null;
      if (pinnedRef.current && el.scrollTop > 0) setPinned(false);
    },
    [setPinned],
  );
  const onWheel = useCallback(
    (event: WheelEvent<HTMLElement>) => {
      held.current = null;
      if (event.deltaY < 0) letGo(event.currentTarget);
    },
    [letGo],
  );
  // Home and End go to the first and the latest row at once: the browser's animated scroll there would be cut short
  // by the first correction for a row measured on the way.
  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLElement>) => {
      if (event.key === 'Home') {
        event.preventDefault();
        letGo(event.currentTarget);
        virtualizer.scrollToOffset(0);
      } else if (event.key === 'End') {
        event.preventDefault();
        held.current = null;
        setPinned(true);
      } else if (UP_KEYS.has(event.key)) {
        letGo(event.currentTarget);
      }
    },
    [letGo, setPinned, virtualizer],
  );

  const onScroll = useCallback(
    (event: UIEvent<HTMLElement>) => {
      const el = event.currentTarget;
      if (el.clientHeight === 0) return;
      const distance = el.scrollHeight - el.scrollTop - el.clientHeight;
      if (distance <= PIN_SLACK_PX) {
        if (!pinnedRef.current) setPinned(true);
      } else if (el.scrollTop < lastTop.current - 1 && pinnedRef.current) {
        // Only the reader moves the feed up: content growing below never unpins it.
        setPinned(false);
      }
      lastTop.current = el.scrollTop;
    },
    [setPinned],
  );

  const follow = useCallback(() => setPinned(true), [setPinned]);
  const jumpToLatest = useCallback(() => {
    setPinned(true);
    // The button goes away with the jump: the focus stays in the feed rather than falling to the page.
    scroller.current?.focus({ preventScroll: true });
  }, [setPinned]);

  return {
    scrollerRef,
    onScroll,
    onWheel,
    onKeyDown,
    measureRef: virtualizer.measureElement,
    items,
    totalSize: virtualizer.getTotalSize(),
    nearStart: virtualizer.range !== null && virtualizer.range.startIndex <= OVERSCAN_ROWS,
    pinned,
    follow,
    jumpToLatest,
    onRowFocus: setFocusedKey,
  };
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

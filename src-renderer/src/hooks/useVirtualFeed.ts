// useVirtualFeed: renders only the rows of a long feed that are near its viewport, and follows its bottom.
//
// The rendered rows stay in normal flow between a top and a bottom padding that stand for the rows not rendered
// (estimated heights until a row has been measured once, by a ResizeObserver, which also sees a <details> opening).
// Because the rows are in flow, the browser's scroll anchoring keeps what the reader sees in place when a row above
// changes height or an estimate is corrected. The feed is pinned to the bottom (new text keeps it there) until the
// reader scrolls up, and pinned again when they reach the bottom or call jumpToLatest. Rows added above the ones shown
// (an earlier page of the conversation) would move every offset: the rendered rows would change under the reader, so
// the browser's anchoring cannot help; the hook puts the view back on the row that was at its top instead.
import {
  type KeyboardEvent,
  type RefCallback,
  type UIEvent,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type WheelEvent,
} from 'react';
import { RowHeights, type RowWindow, rowWindow } from '../components/feed-window';

/** Rendered beyond each edge of the viewport, so a quick scroll or a Page Down finds rows already there. */
const OVERSCAN_PX = 800;
/** This close to the bottom counts as at the bottom. */
const PIN_SLACK_PX = 24;
/** Keys that scroll a focused feed up. */
const UP_KEYS = new Set(['ArrowUp', 'PageUp', 'Home']);
/** A focused row farther than this from the viewport is let go rather than rendering every row in between. */
const KEEP_FOCUSED_MAX_ROWS = 200;

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
  /** For each rendered row's element, which must carry `data-key` and `data-index` (its index in the rows). */
  measureRef: RefCallback<HTMLElement>;
  /** The rows rendered. */
  range: RowWindow;
  /** Heights that stand for the rows before and after the range. */
  padTop: number;
  padBottom: number;
  /** True while the feed follows its bottom. */
  pinned: boolean;
  /** Follows the bottom again (the reader's own comment, say). */
  follow(): void;
  /** The reader asked for the latest: follows the bottom, the focus kept in the feed. */
  jumpToLatest(): void;
  /** Notes the row holding the focus, which then stays rendered while the reader scrolls. */
  onRowFocus(key: string | null): void;
}

/** `estimate` is read once (a module-level function): a row's first estimate stands until it is measured. */
export function useVirtualFeed<Row extends Keyed>(rows: readonly Row[], estimate: (row: Row) => number): VirtualFeed {
  const scroller = useRef<HTMLElement | null>(null);
  const [heights] = useState(() => new RowHeights(estimate));
  const [, setMeasured] = useState(0);
  const [viewport, setViewport] = useState({ top: 0, height: 0 });
  const [pinned, setPinnedState] = useState(true);
  const pinnedRef = useRef(true);
  const lastTop = useRef(0);
  const [focusedKey, setFocusedKey] = useState<string | null>(null);
  /** The row at the top of the view after the last render, and how far the view's top was below that row's top. */
  const anchor = useRef<Anchor | null>(null);

  const setPinned = useCallback((value: boolean) => {
    pinnedRef.current = value;
    setPinnedState(value);
  }, []);

  const readViewport = useCallback((el: HTMLElement) => {
    const top = el.scrollTop;
    const height = el.clientHeight;
    setViewport((v) => (v.top === top && v.height === height ? v : { top, height }));
  }, []);

  const [observer] = useState(
    () =>
      new ResizeObserver((entries) => {
        let changed = false;
        for (const entry of entries) {
          const el = entry.target as HTMLElement;
          const height = entry.borderBoxSize[0]?.blockSize ?? el.getBoundingClientRect().height;
          if (el === scroller.current) {
            // 0 while its tab is hidden; shown again, it has lost its scroll position.
            if (height === 0) continue;
            el.scrollTop = pinnedRef.current ? el.scrollHeight : lastTop.current;
            readViewport(el);
            continue;
          }
          const key = el.dataset.key;
          const index = Number(el.dataset.index);
          if (key && height > 0 && heights.measure(index, key, height)) changed = true;
        }
        if (changed) setMeasured((n) => n + 1);
      }),
  );
  useEffect(() => () => observer.disconnect(), [observer]);

  const scrollerRef = useCallback<RefCallback<HTMLElement>>(
    (el) => {
      scroller.current = el;
      if (!el) return;
      observer.observe(el);
      readViewport(el);
      return () => {
        observer.unobserve(el);
        scroller.current = null;
      };
    },
    [observer, readViewport],
  );

  const measureRef = useCallback<RefCallback<HTMLElement>>(
    (el) => {
      if (!el) return;
      observer.observe(el);
      return () => observer.unobserve(el);
    },
    [observer],
  );

  // A cache keyed by the rows (rendering twice gives the same offsets), updated in place: a streamed delta costs
  // what the feed's tail costs, not its 10,000 rows.
  heights.setRows(rows);
  const offsets = heights.currentOffsets();

  const total = offsets[rows.length] as number;
  // Rows added above the anchor: the view goes where the anchor went (set on the scroller after this render).
  const restored = pinned ? null : movedAnchor(anchor.current, rows, offsets);
  // Pinned, the window is the bottom one even before the scroll position has caught up with new rows.
  const top = pinned ? Math.max(0, total - viewport.height) : (restored ?? viewport.top);
  const range = withFocused(rowWindow(offsets, top, viewport.height, OVERSCAN_PX), rows, focusedKey);
  const padTop = offsets[range.start] as number;
  const padBottom = total - (offsets[range.end] as number);

  // After every render: pinned, the feed shows its bottom (new text, a row measured taller, a taller composer);
  // with rows added above, it shows the anchor where it was. Then the anchor is taken again.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (pinnedRef.current) {
      el.scrollTop = el.scrollHeight;
      lastTop.current = el.scrollTop;
    } else if (restored !== null) {
      // The offsets place the anchor near where it was; its element, laid out, says exactly how far off that is
      // (rows above it rendered for the first time are rarely as tall as estimated).
      el.scrollTop = restored;
      const was = anchor.current?.screenTop;
      const now = anchor.current && screenTopOf(el, anchor.current.key);
      if (was != null && now != null) el.scrollTop += now - was;
      lastTop.current = el.scrollTop;
      readViewport(el);
    }
    const next = anchorAt(rows, offsets, top);
    // Where the anchor is on screen, read only when not pinned (then nothing is restored).
    if (next && !pinnedRef.current) next.screenTop = screenTopOf(el, next.key);
    anchor.current = next;
  });

  // A render between the reader's scroll and its scroll event would pull them back down: their intent unpins first.
  const letGo = useCallback(
    (el: HTMLElement) => {
      if (pinnedRef.current && el.scrollTop > 0) setPinned(false);
    },
    [setPinned],
  );
  const onWheel = useCallback(
    (event: WheelEvent<HTMLElement>) => {
      if (event.deltaY < 0) letGo(event.currentTarget);
    },
    [letGo],
  );
  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLElement>) => {
      if (UP_KEYS.has(event.key)) letGo(event.currentTarget);
    },
    [letGo],
  );

  const onScroll = useCallback(
    (event: UIEvent<HTMLElement>) => {
      const el = event.currentTarget;
      const distance = el.scrollHeight - el.scrollTop - el.clientHeight;
      if (distance <= PIN_SLACK_PX) {
        if (!pinnedRef.current) setPinned(true);
      } else if (el.scrollTop < lastTop.current - 1 && pinnedRef.current) {
        // Only the reader moves the feed up: content growing below never unpins it.
        setPinned(false);
      }
      lastTop.current = el.scrollTop;
      readViewport(el);
    },
    [readViewport, setPinned],
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
    measureRef,
    range,
    padTop,
    padBottom,
    pinned,
    follow,
    jumpToLatest,
    onRowFocus: setFocusedKey,
  };
}

interface Anchor {
  key: string;
  index: number;
  /** The view's top minus the row's top, in the offsets. */
  delta: number;
  /** The row's top below the view's top in the layout, when it was rendered. */
  screenTop?: number | null;
}

/** How far below the scroller's top the rendered row with `key` is; null when it is not rendered. */
function screenTopOf(scroller: HTMLElement, key: string): number | null {
  const row = scroller.querySelector(`[data-key="${CSS.escape(key)}"]`);
  return row ? row.getBoundingClientRect().top - scroller.getBoundingClientRect().top : null;
}

/**
 * The row the view is anchored on: the first one reaching below its top, or the next one when that is the feed's first
 * row (a row that stays first, like the one that loads earlier rows, would not show that rows came in under it).
 */
function anchorAt(rows: readonly Keyed[], offsets: Float64Array, top: number): Anchor | null {
  if (rows.length === 0) return null;
  const { start } = rowWindow(offsets, top, 0, 0);
  const index = start === 0 && rows.length > 1 ? 1 : start;
  const row = rows[index] as Keyed;
  return { key: row.key, index, delta: top - (offsets[index] as number) };
}

/** The view's top that puts the anchor back where it was, when rows before it came or went; null when none did. */
function movedAnchor(anchor: Anchor | null, rows: readonly Keyed[], offsets: Float64Array): number | null {
  if (!anchor || rows[anchor.index]?.key === anchor.key) return null;
  const index = rows.findIndex((r) => r.key === anchor.key);
  if (index === -1) return null;
  return Math.max(0, (offsets[index] as number) + anchor.delta);
}

/** The range grown to keep the focused row rendered, unless that row is far away (then it is let go). */
function withFocused(range: RowWindow, rows: readonly Keyed[], focusedKey: string | null): RowWindow {
  if (focusedKey === null) return range;
  if (rows.slice(range.start, range.end).some((r) => r.key === focusedKey)) return range;
  const lo = Math.max(0, range.start - KEEP_FOCUSED_MAX_ROWS);
  const before = rows.slice(lo, range.start).findIndex((r) => r.key === focusedKey);
  if (before !== -1) return { start: lo + before, end: range.end };
  const after = rows.slice(range.end, range.end + KEEP_FOCUSED_MAX_ROWS).findIndex((r) => r.key === focusedKey);
  if (after !== -1) return { start: range.start, end: range.end + after + 1 };
  return range;
}

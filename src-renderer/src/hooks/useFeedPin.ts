// useFeedPin: the chat feed pinned to its bottom (new text keeps it there) until the reader scrolls up — their wheel
// or keys unpin it before the scroll they cause — and pinned again when they reach the bottom or ask for the latest.
import { type KeyboardEvent, type UIEvent, useCallback, useState, type WheelEvent } from 'react';
import type { FeedScroll } from './feed-scroll';

/** This close to the bottom counts as at the bottom. */
const PIN_SLACK_PX = 24;
/** Keys that scroll a focused feed up. */
const UP_KEYS = new Set(['ArrowUp', 'PageUp']);

export interface FeedPin {
  /** True while the feed follows its bottom. */
  pinned: boolean;
  onScroll(event: UIEvent<HTMLElement>): void;
  onWheel(event: WheelEvent<HTMLElement>): void;
  onKeyDown(event: KeyboardEvent<HTMLElement>): void;
  follow(): void;
  jumpToLatest(): void;
}

/** `toTop` shows the first row at once (Home). */
export function useFeedPin(scroll: FeedScroll, toTop: () => void): FeedPin {
  const [pinned, setPinnedState] = useState(true);
  const setPinned = useCallback(
    (value: boolean) => {
      scroll.pinned.current = value;
      setPinnedState(value);
    },
    [scroll],
  );

  // A render between the reader's scroll and its scroll event would pull them back down: their intent unpins first.
  const letGo = useCallback(
    (el: HTMLElement) => {
      scroll.held.current = null;
      if (scroll.pinned.current && el.scrollTop > 0) setPinned(false);
    },
    [scroll, setPinned],
  );
  const onWheel = useCallback(
    (event: WheelEvent<HTMLElement>) => {
      scroll.held.current = null;
      if (event.deltaY < 0) letGo(event.currentTarget);
    },
    [scroll, letGo],
  );
  // Home and End go to the first and the latest row at once: the browser's animated scroll there would be cut short
  // by the first correction for a row measured on the way.
  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLElement>) => {
      if (event.key === 'Home') {
        event.preventDefault();
        letGo(event.currentTarget);
        toTop();
      } else if (event.key === 'End') {
        event.preventDefault();
        scroll.held.current = null;
        setPinned(true);
      } else if (UP_KEYS.has(event.key)) {
        letGo(event.currentTarget);
      }
    },
    [scroll, letGo, setPinned, toTop],
  );

  const onScroll = useCallback(
    (event: UIEvent<HTMLElement>) => {
      const el = event.currentTarget;
      if (el.clientHeight === 0) return;
      const distance = el.scrollHeight - el.scrollTop - el.clientHeight;
      if (distance <= PIN_SLACK_PX) {
        if (!scroll.pinned.current) setPinned(true);
      } else if (el.scrollTop < scroll.lastTop.current - 1 && scroll.pinned.current) {
        // Only the reader moves the feed up: content growing below never unpins it.
        setPinned(false);
      }
      scroll.lastTop.current = el.scrollTop;
    },
    [scroll, setPinned],
  );

  const follow = useCallback(() => setPinned(true), [setPinned]);
  const jumpToLatest = useCallback(() => {
    setPinned(true);
    // The button goes away with the jump: the focus stays in the feed rather than falling to the page.
    scroll.scroller.current?.focus({ preventScroll: true });
  }, [scroll, setPinned]);

  return { pinned, onScroll, onWheel, onKeyDown, follow, jumpToLatest };
}

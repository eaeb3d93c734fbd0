// What the chat feed's hooks share about its scroller, kept in refs so that reading them never renders: the element,
// whether the feed follows its bottom, where the reader last was, and the row held after a page came in above.
import { type RefObject, useState } from 'react';

export interface Keyed {
  key: string;
}

export interface FeedScroll {
  scroller: RefObject<HTMLElement | null>;
  /** The feed follows its bottom (the state that renders is useFeedPin's `pinned`). */
  pinned: RefObject<boolean>;
  /** The scroller's scrollTop when the feed last saw it. */
  lastTop: RefObject<number>;
  /** After a page came in above: the row the view holds on to, while it is rendered and the reader does not move. */
  held: RefObject<(Keyed & { index: number }) | null>;
}

/** One object for the feed's lifetime, so the callbacks that read it keep their identity. */
export function useFeedScroll(): FeedScroll {
  const [scroll] = useState<FeedScroll>(() => ({
    scroller: { current: null },
    pinned: { current: true },
    lastTop: { current: 0 },
    held: { current: null },
  }));
  return scroll;
}

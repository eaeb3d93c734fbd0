// useFeedScroller: the chat feed's scrolling element, watched for being hidden (behind its tab: laid out at 0, it
// has no rows to show nor a scroll position) and shown again, when it gets its scroll position back.
import { type RefCallback, useCallback, useEffect, useState } from 'react';
import type { FeedScroll } from './feed-scroll';

export function useFeedScroller(scroll: FeedScroll): { shown: boolean; scrollerRef: RefCallback<HTMLElement> } {
  const [shown, setShown] = useState(true);
  const [observer] = useState(
    () =>
      new ResizeObserver((entries) => {
        for (const entry of entries) {
          const el = entry.target as HTMLElement;
          const hidden = entry.contentRect.height === 0;
          if (!hidden) el.scrollTop = scroll.pinned.current ? el.scrollHeight : scroll.lastTop.current;
          setShown(!hidden);
        }
      }),
  );
  useEffect(() => () => observer.disconnect(), [observer]);

  const scrollerRef = useCallback<RefCallback<HTMLElement>>(
    (el) => {
      scroll.scroller.current = el;
      if (!el) return;
      observer.observe(el);
      return () => {
        observer.unobserve(el);
        scroll.scroller.current = null;
      };
    },
    [scroll, observer],
  );
  return { shown, scrollerRef };
}

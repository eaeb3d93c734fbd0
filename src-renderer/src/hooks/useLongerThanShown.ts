// Whether an element is taller than the scrolling area it sits in, kept current as either resizes: an approval card
// says so, so the person knows to scroll before deciding (its buttons stay in sight; see approvals.css).
import { type RefObject, useEffect, useState } from 'react';

/** The nearest ancestor that scrolls vertically, or null. */
function scrollerOf(element: HTMLElement): HTMLElement | null {
  for (let node = element.parentElement; node; node = node.parentElement) {
    const overflow = getComputedStyle(node).overflowY;
    if (overflow === 'auto' || overflow === 'scroll') return node;
  }
  return null;
}

export function useLongerThanShown(ref: RefObject<HTMLElement | null>): boolean {
  const [longer, setLonger] = useState(false);
  useEffect(() => {
    const element = ref.current;
    const scroller = element && scrollerOf(element);
    if (!element || !scroller || typeof ResizeObserver === 'undefined') return;
    const measure = () => setLonger(element.offsetHeight > scroller.clientHeight + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    observer.observe(scroller);
    measure();
    return () => observer.disconnect();
  }, [ref]);
  return longer;
}

// The feed's reading anchor (which row the view holds on to, and where the view goes when an earlier page comes in
// above it), the focused row kept rendered, and the virtualizer underneath: the rows a viewport renders out of 100 and
// out of 10,000, and measured heights kept by key when rows come in above.
import { Virtualizer } from '@tanstack/react-virtual';
import { describe, expect, it } from 'vitest';
import { anchorAt, KEEP_FOCUSED_MAX_ROWS, movedAnchor, withFocused } from './feed-anchor';

/** Rows laid out from `heights`, as the virtualizer gives them. */
const placed = (heights: number[], prefix = 'r') => {
  let start = 0;
  return heights.map((h, index) => {
    const item = { key: `${prefix}${index}`, index, start, end: start + h };
    start += h;
    return item;
  });
};

describe('anchorAt', () => {
  const items = placed([40, 100, 100, 100]); // tops 0, 40, 140, 240

  it('holds on to the first row reaching below the view’s top, and how far into it the view is', () => {
    expect(anchorAt(items, 150)).toEqual({ key: 'r2', index: 2, delta: 10 });
    expect(anchorAt(items, 140)).toEqual({ key: 'r2', index: 2, delta: 0 });
  });

  it('passes over the feed’s first row (the one that loads earlier pages stays first)', () => {
    expect(anchorAt(items, 0)).toEqual({ key: 'r1', index: 1, delta: -40 });
    expect(anchorAt(placed([40]), 0)).toEqual({ key: 'r0', index: 0, delta: 0 });
  });

  it('has none without rows, or above none of them', () => {
    expect(anchorAt([], 0)).toBeNull();
    expect(anchorAt(items, 1000)).toBeNull();
  });
});

describe('movedAnchor', () => {
  const keys = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
  const tops = (heights: number[]) => placed(heights).map((i) => i.start);
  const against = (rowKeys: string[], starts: number[]) =>
    [
      (index: number) => rowKeys[index],
      (key: string) => rowKeys.indexOf(key),
      (index: number) => starts[index] ?? 0,
    ] as const;

  it('puts the view where the anchor went when a page came in above it', () => {
    // Before: older, r0, r1 …; the view 40px above r0's top (the older row on screen). After: 200 rows came in.
    const anchor = { key: 'r0', index: 1, delta: -40 };
    const after = ['older', ...keys('p', 200), ...keys('r', 5)];
    const starts = tops([40, ...Array.from({ length: 205 }, () => 50)]);
    expect(movedAnchor(anchor, ...against(after, starts))).toBe(40 + 200 * 50 - 40);
  });

  it('leaves the view alone when the anchor is where it was, or gone', () => {
    const rowKeys = ['older', 'r0', 'r1'];
    const starts = tops([40, 50, 50]);
    expect(movedAnchor({ key: 'r0', index: 1, delta: 5 }, ...against(rowKeys, starts))).toBeNull();
    expect(movedAnchor({ key: 'x', index: 1, delta: 5 }, ...against(rowKeys, starts))).toBeNull();
    expect(movedAnchor(null, ...against(rowKeys, starts))).toBeNull();
  });

  it('never goes above the top', () => {
    expect(movedAnchor({ key: 'r1', index: 0, delta: -500 }, ...against(['r0', 'r1'], [0, 50]))).toBe(0);
  });
});

describe('withFocused', () => {
  it('adds the focused row to the rows rendered, before or after them', () => {
    expect(withFocused([10, 11, 12], 3)).toEqual([3, 10, 11, 12]);
    expect(withFocused([10, 11, 12], 20)).toEqual([10, 11, 12, 20]);
  });

  it('changes nothing when it is rendered already, there is none, or it is far away', () => {
    expect(withFocused([10, 11, 12], 11)).toEqual([10, 11, 12]);
    expect(withFocused([10, 11, 12], -1)).toEqual([10, 11, 12]);
    expect(withFocused([1000], 1000 + KEEP_FOCUSED_MAX_ROWS + 1)).toEqual([1000]);
    expect(withFocused([1000], 1000 - KEEP_FOCUSED_MAX_ROWS - 1)).toEqual([1000]);
  });
});

describe('the virtualizer under the feed', () => {
  /** A virtualizer over rows of `heights`, its viewport 800px tall at `top`, outside any DOM. */
  function virtualizer(keys: () => string[], height: (i: number) => number, top: number) {
    const v = new Virtualizer<HTMLElement, HTMLElement>({
      count: keys().length,
      getScrollElement: () => null,
      estimateSize: height,
      getItemKey: (i) => keys()[i] as string,
      overscan: 8,
      observeElementRect: () => undefined,
      observeElementOffset: () => undefined,
      scrollToFn: () => undefined,
      initialRect: { width: 800, height: 800 },
      initialOffset: top,
    });
    return v;
  }

  it('renders as many rows at the bottom of 10,000 as of 100', () => {
    const count = (n: number) => {
      const keys = Array.from({ length: n }, (_, i) => `r${i}`);
      const v = virtualizer(
        () => keys,
        () => 80,
        n * 80 - 800,
      );
      return v.getVirtualItems().map((i) => i.index);
    };
    const small = count(100);
    const large = count(10_000);
    expect(large).toHaveLength(small.length);
    expect(large.at(-1)).toBe(9_999);
    expect(large.length).toBeLessThan(40);
  });

  it('keeps a measured height by key when rows come in above it', () => {
    let keys = ['r0', 'r1', 'r2'];
    const v = virtualizer(
      () => keys,
      () => 50,
      0,
    );
    v.getVirtualItems();
    // As the ResizeObserver reports a rendered row.
    v.resizeItem(1, 300);
    expect(v.getTotalSize()).toBe(50 + 300 + 50);
    keys = ['p0', 'p1', ...keys];
    v.setOptions({ ...v.options, count: keys.length, getItemKey: (i) => keys[i] as string });
    v.getVirtualItems();
    const r1 = v.measurementsCache.find((m) => m.key === 'r1');
    expect(r1).toMatchObject({ index: 3, start: 150, size: 300 });
    expect(v.getTotalSize()).toBe(4 * 50 + 300);
  });
});

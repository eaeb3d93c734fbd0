// The virtualized feed's arithmetic: the rows a viewport (plus overscan) intersects, and row heights and offsets kept
// up to date incrementally (estimates until measured, a changed tail recomputed alone).
import { describe, expect, it } from 'vitest';
import { RowHeights, rowWindow } from './feed-window';

interface Row {
  key: string;
  h: number;
}
const rowsOf = (heights: number[], prefix = 'r') => heights.map((h, i): Row => ({ key: `${prefix}${i}`, h }));
const offsetsOf = (heights: number[]) => {
  const layout = new RowHeights<Row>((r) => r.h);
  layout.setRows(rowsOf(heights));
  return layout.currentOffsets();
};

describe('RowHeights', () => {
  it('gives each row its top and the total last, from the estimates', () => {
    expect([...offsetsOf([10, 20, 5])]).toEqual([0, 10, 30, 35]);
    expect([...offsetsOf([])]).toEqual([0]);
  });

  it('uses a measured height instead of the estimate, also after the rows are replaced by equal keys', () => {
    let estimates = 0;
    const layout = new RowHeights<Row>((r) => {
      estimates++;
      return r.h;
    });
    layout.setRows(rowsOf([10, 10, 10]));
    expect(layout.measure(1, 'r1', 40)).toBe(true);
    expect(layout.measure(1, 'r1', 40)).toBe(false);
    expect([...layout.currentOffsets()]).toEqual([0, 10, 50, 60]);
    // New row objects with the same keys plus one more: only the new key is estimated.
    layout.setRows(rowsOf([99, 99, 99, 7]));
    expect([...layout.currentOffsets()]).toEqual([0, 10, 50, 60, 67]);
    expect(estimates).toBe(4);
  });

  it('keeps a measurement made after the rows moved, by key', () => {
    const layout = new RowHeights<Row>((r) => r.h);
    layout.setRows(rowsOf([10, 10]));
    const moved = [{ key: 'new', h: 5 }, ...rowsOf([10, 10])];
    layout.setRows(moved);
    // Measured at the index it had when it rendered.
    expect(layout.measure(0, 'r0', 30)).toBe(true);
    layout.setRows(moved);
    expect([...layout.currentOffsets()]).toEqual([0, 5, 35, 45]);
  });

  it('sums 10,000 rows once; a streamed tail changes without touching the rows before it', () => {
    const layout = new RowHeights<Row>((r) => r.h);
    const base = rowsOf(Array.from({ length: 10_000 }, () => 50));
    layout.setRows([...base, { key: 'turn', h: 100 }]);
    expect(layout.currentOffsets()[10_001]).toBe(500_100);
    layout.setRows([...base, { key: 'turn', h: 100 }]);
    expect(layout.measure(10_000, 'turn', 400)).toBe(true);
    expect(layout.currentOffsets()[10_001]).toBe(500_400);
    layout.setRows([...base, { key: 'turn', h: 100 }, { key: 'turn2', h: 60 }]);
    const offsets = layout.currentOffsets();
    expect(offsets).toHaveLength(10_003);
    expect(offsets[10_002]).toBe(500_460);
    // Rows removed from the end (the stream replaced by its result).
    layout.setRows(base);
    expect(layout.currentOffsets()).toHaveLength(10_001);
  });
});

describe('rowWindow', () => {
  const offsets = offsetsOf(Array.from({ length: 10 }, () => 100)); // rows at 0, 100, … 900; 1000 in all

  it('covers the rows the viewport intersects, plus the overscan on either side', () => {
    expect(rowWindow(offsets, 250, 300, 0)).toEqual({ start: 2, end: 6 });
    expect(rowWindow(offsets, 250, 300, 100)).toEqual({ start: 1, end: 7 });
  });

  it('stops at the ends', () => {
    expect(rowWindow(offsets, 0, 250, 500)).toEqual({ start: 0, end: 8 });
    expect(rowWindow(offsets, 800, 200, 500)).toEqual({ start: 3, end: 10 });
    expect(rowWindow(offsets, 5000, 200, 0)).toEqual({ start: 9, end: 10 });
  });

  it('renders at least one row, and none when there are none', () => {
    expect(rowWindow(offsets, 0, 0, 0)).toEqual({ start: 0, end: 1 });
    expect(rowWindow(offsetsOf([]), 0, 500, 100)).toEqual({ start: 0, end: 0 });
  });

  it('keeps rows of different heights apart exactly at their edges', () => {
    const mixed = offsetsOf([30, 400, 20, 20, 600]); // tops 0, 30, 430, 450, 470; 1070 in all
    expect(rowWindow(mixed, 430, 40, 0)).toEqual({ start: 2, end: 4 });
    expect(rowWindow(mixed, 429, 1, 0)).toEqual({ start: 1, end: 2 });
  });

  it('picks the same number of rows out of 10,000 as out of 100', () => {
    const small = offsetsOf(Array.from({ length: 100 }, () => 80));
    const large = offsetsOf(Array.from({ length: 10_000 }, () => 80));
    const bottom = (o: Float64Array) => rowWindow(o, (o.at(-1) as number) - 800, 800, 800);
    const s = bottom(small);
    const l = bottom(large);
    expect(l.end - l.start).toBe(s.end - s.start);
    expect(l).toEqual({ start: 10_000 - 20, end: 10_000 });
  });
});

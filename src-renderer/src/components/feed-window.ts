// The arithmetic of the virtualized feed: which rows a viewport (plus an overscan margin above and below) intersects,
// by binary search, and the rows' heights and offsets, kept up to date incrementally; so 10,000 rows cost what 100 do.

export interface RowWindow {
  /** The first row rendered. */
  start: number;
  /** One past the last row rendered. */
  end: number;
}

/**
 * The rows that intersect [top − overscan, top + height + overscan], given offsets[i] = the top of row i and
 * offsets[n] = the height of all n rows; at least one row when there are any.
 */
export function rowWindow(offsets: Float64Array, top: number, height: number, overscan: number): RowWindow {
  const count = offsets.length - 1;
  if (count <= 0) return { start: 0, end: 0 };
  const from = top - overscan;
  const to = top + height + overscan;
  // The first row whose bottom is below `from`.
  let lo = 0;
  let hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((offsets[mid + 1] as number) > from) hi = mid;
    else lo = mid + 1;
  }
  const start = lo;
  // One past the last row whose top is above `to`.
  lo = start + 1;
  hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((offsets[mid] as number) < to) lo = mid + 1;
    else hi = mid;
  }
  return { start, end: lo };
}

/**
 * The heights and offsets of a feed's rows, kept across renders so that a change at the end (streamed text, a new
 * comment) costs what the change costs, not what the feed's length costs. A row's height is its measured height, or
 * until it has one, the first estimate made for its key; so rows with the same keys as before keep their heights,
 * and only the rows from the first changed key on (and from the first newly measured row on) are summed again.
 */
export class RowHeights<Row extends { key: string }> {
  private rows: readonly Row[] = [];
  private sizes = new Float64Array(0);
  private offsets = new Float64Array(1);
  /** Offsets from this index on are stale. */
  private staleFrom = 0;
  private readonly measured = new Map<string, number>();
  private readonly estimated = new Map<string, number>();

  constructor(private readonly estimate: (row: Row) => number) {}

  /** Adopts the current rows; cheap when they are the previous ones with a changed tail. */
  setRows(rows: readonly Row[]): void {
    if (rows === this.rows) return;
    const old = this.rows;
    const shared = Math.min(old.length, rows.length);
    let same = 0;
    while (same < shared && (old[same] as Row).key === (rows[same] as Row).key) same++;
    if (this.sizes.length < rows.length) {
      const grown = new Float64Array(Math.max(rows.length, this.sizes.length * 2));
      grown.set(this.sizes.subarray(0, same));
      this.sizes = grown;
      const offsets = new Float64Array(grown.length + 1);
      offsets.set(this.offsets.subarray(0, same + 1));
      this.offsets = offsets;
    }
    for (let i = same; i < rows.length; i++) this.sizes[i] = this.sizeOf(rows[i] as Row);
    this.rows = rows;
    this.staleFrom = Math.min(this.staleFrom, same);
  }

  /** Records the rendered height of the row at `index`; true when it differs from what was assumed. */
  measure(index: number, key: string, height: number): boolean {
    if (Math.abs((this.measured.get(key) ?? -1) - height) < 0.5) return false;
    this.measured.set(key, height);
    if (this.rows[index]?.key === key) {
      this.sizes[index] = height;
      this.staleFrom = Math.min(this.staleFrom, index);
    } else {
      // The rows moved since that one rendered: the next setRows takes every height afresh.
      this.rows = [];
    }
    return true;
  }

  /** offsets[i] is the top of row i, offsets[rows.length] the height of all rows. */
  currentOffsets(): Float64Array {
    for (let i = this.staleFrom; i < this.rows.length; i++) {
      this.offsets[i + 1] = (this.offsets[i] as number) + (this.sizes[i] as number);
    }
    this.staleFrom = this.rows.length;
    return this.offsets.subarray(0, this.rows.length + 1);
  }

  private sizeOf(row: Row): number {
    const measured = this.measured.get(row.key);
    if (measured !== undefined) return measured;
    let estimated = this.estimated.get(row.key);
    if (estimated === undefined) {
      estimated = this.estimate(row);
      this.estimated.set(row.key, estimated);
    }
    return estimated;
  }
}

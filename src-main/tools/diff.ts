// A unified diff (as `diff -u` / `git diff` print it, 3 lines of context) of two texts, for the results of the writing
// tools, so the UI can show what changed. Common leading and trailing lines are set aside first; the rest is diffed
// with Myers' algorithm up to DIFF_MAX_EDITS edits (beyond that, or for a very long middle, the middle is shown as
// removed and added whole). The printed diff is capped at DIFF_MAX_LINES lines and DIFF_MAX_CHARS characters, with
// a note saying how much was left out; each line is capped at DIFF_MAX_LINE_CHARS.
import { capLine } from './text';

export const DIFF_CONTEXT = 3;
export const DIFF_MAX_LINES = 200;
export const DIFF_MAX_CHARS = 12_000;
export const DIFF_MAX_LINE_CHARS = 300;
/** An old file larger than this is not compared (write_file says so instead of showing a diff). */
export const DIFF_MAX_SOURCE_BYTES = 4 * 1024 * 1024;
const DIFF_MAX_EDITS = 1000;
/** Longest middle (lines of both sides together) that Myers' algorithm is run on. */
const DIFF_MAX_MIDDLE = 40_000;

/**
 * Lines without their `\n` (a `\r` before it stays), except a last line with no line break after it: that one ends
 * with `\n`, which no other line contains, so it never equals a line that has one.
 */
function linesOf(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  const last = lines.pop() as string;
  if (last !== '') lines.push(`${last}\n`);
  return lines;
}

/** A run of the edit script: `=` lines common to both, `-` lines only in a, `+` lines only in b. */
interface Run {
  op: '=' | '-' | '+';
  a: number;
  b: number;
  len: number;
}

function pushRun(runs: Run[], op: Run['op'], a: number, b: number, len: number) {
  if (len === 0) return;
  const last = runs[runs.length - 1];
  if (
    last &&
    last.op === op &&
    last.a + (op === '+' ? 0 : last.len) === a &&
    last.b + (op === '-' ? 0 : last.len) === b
  ) {
    last.len += len;
    return;
  }
  runs.push({ op, a, b, len });
}

/** Myers' O(ND) diff of a[a0..a1) and b[b0..b1); null when it needs more than maxD edits. */
function myers(a: string[], a0: number, a1: number, b: string[], b0: number, b1: number, maxD: number): Run[] | null {
  const n = a1 - a0;
  const m = b1 - b0;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= Math.min(max, maxD); d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2)); // v[k] for k in [-d-1, d+1] before round d
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number))
          ? (v[offset + k + 1] as number)
          : (v[offset + k - 1] as number) + 1;
      let y = x - k;
      while (x < n && y < m && a[a0 + x] === b[b0 + y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, d, n, m, a0, b0);
    }
  }
  return null;
}

function backtrack(trace: Int32Array[], dEnd: number, n: number, m: number, a0: number, b0: number): Run[] {
  const reversed: Run[] = [];
  let x = n;
  let y = m;
  for (let d = dEnd; d >= 0; d--) {
    const v = trace[d] as Int32Array;
    const at = (k: number) => v[k + d + 1] as number;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : at(prevK);
    const prevY = d === 0 ? 0 : prevX - prevK;
    const snake = Math.min(x - prevX, y - prevY);
    if (snake > 0) reversed.push({ op: '=', a: a0 + x - snake, b: b0 + y - snake, len: snake });
    x -= snake;
    y -= snake;
    if (d === 0) break;
    if (x === prevX) reversed.push({ op: '+', a: a0 + prevX, b: b0 + prevY, len: 1 });
    else reversed.push({ op: '-', a: a0 + prevX, b: b0 + prevY, len: 1 });
    x = prevX;
    y = prevY;
  }
  const runs: Run[] = [];
  for (let i = reversed.length - 1; i >= 0; i--) {
    const r = reversed[i] as Run;
    pushRun(runs, r.op, r.a, r.b, r.len);
  }
  return runs;
}

/** The edit script of a → b as runs. */
function editScript(a: string[], b: string[]): Run[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let post = 0;
  while (post < a.length - pre && post < b.length - pre && a[a.length - 1 - post] === b[b.length - 1 - post]) post++;
  const a1 = a.length - post;
  const b1 = b.length - post;
  const runs: Run[] = [];
  pushRun(runs, '=', 0, 0, pre);
  const middle = a1 - pre + (b1 - pre) <= DIFF_MAX_MIDDLE ? myers(a, pre, a1, b, pre, b1, DIFF_MAX_EDITS) : null;
  if (middle) {
    for (const r of middle) pushRun(runs, r.op, r.a, r.b, r.len);
  } else {
    pushRun(runs, '-', pre, pre, a1 - pre);
    pushRun(runs, '+', a1, pre, b1 - pre);
  }
  pushRun(runs, '=', a1, b1, post);
  return runs;
}

/** A piece of a hunk: `len` lines of `from` (a or b) from `start`, each printed after `prefix`. */
interface Piece {
  prefix: ' ' | '-' | '+';
  from: string[];
  start: number;
  len: number;
}

interface Hunk {
  a: number;
  b: number;
  aLen: number;
  bLen: number;
  pieces: Piece[];
}

const range = (start: number, len: number) => (len === 1 ? `${start + 1}` : `${len === 0 ? start : start + 1},${len}`);

function hunksOf(a: string[], b: string[], runs: Run[]): Hunk[] {
  const hunks: Hunk[] = [];
  let h: Hunk | null = null;
  const context = (hunk: Hunk, start: number, len: number) => {
    if (len > 0) hunk.pieces.push({ prefix: ' ', from: a, start, len });
    hunk.aLen += len;
    hunk.bLen += len;
  };
  for (let i = 0; i < runs.length; i++) {
    const r = runs[i] as Run;
    if (r.op === '=') {
      if (!h) continue;
      if (i < runs.length - 1 && r.len <= 2 * DIFF_CONTEXT) {
        context(h, r.a, r.len);
        continue;
      }
      context(h, r.a, Math.min(DIFF_CONTEXT, r.len));
      hunks.push(h);
      h = null;
      continue;
    }
    if (!h) {
      const prev = runs[i - 1];
      const lead = prev?.op === '=' ? Math.min(DIFF_CONTEXT, prev.len) : 0;
      h = { a: r.a - lead, b: r.b - lead, aLen: 0, bLen: 0, pieces: [] };
      context(h, r.a - lead, lead);
    }
    if (r.op === '-') {
      h.pieces.push({ prefix: '-', from: a, start: r.a, len: r.len });
      h.aLen += r.len;
    } else {
      h.pieces.push({ prefix: '+', from: b, start: r.b, len: r.len });
      h.bLen += r.len;
    }
  }
  if (h) hunks.push(h);
  return hunks;
}

/** Collects printed lines up to the caps, then only counts what it leaves out. */
class Printer {
  readonly out: string[] = [];
  private size = 0;
  omitted = 0;
  line(text: string) {
    if (this.omitted > 0) {
      this.omitted++;
      return;
    }
    const shown = capLine(text, DIFF_MAX_LINE_CHARS);
    if (this.out.length >= DIFF_MAX_LINES || this.size + shown.length + 1 > DIFF_MAX_CHARS) {
      this.omitted++;
      return;
    }
    this.out.push(shown);
    this.size += shown.length + 1;
  }
  piece(p: Piece) {
    for (let i = 0; i < p.len; i++) {
      const text = p.from[p.start + i] as string;
      const last = p.start + i === p.from.length - 1;
      if (this.omitted > 0) {
        // Printing stopped: count the rest of the piece (and a final "no newline" note) without building lines.
        const noBreakNote = p.start + p.len === p.from.length && p.from[p.from.length - 1]?.endsWith('\n');
        this.omitted += p.len - i + (noBreakNote ? 1 : 0);
        return;
      }
      if (last && text.endsWith('\n')) {
        this.line(`${p.prefix}${text.slice(0, -1)}`);
        this.line('\\ No newline at end of file');
      } else {
        this.line(`${p.prefix}${text}`);
      }
    }
  }
}

/**
 * The unified diff of `before` → `after` (null before: a new file), headed `--- a/<rel>` / `+++ b/<rel>`; '' when
 * the texts are the same.
 */
export function unifiedDiff(rel: string, before: string | null, after: string): string {
  if (before === after) return '';
  const a = linesOf(before ?? '');
  const b = linesOf(after);
  const p = new Printer();
  p.line(before === null ? '--- /dev/null' : `--- a/${rel}`);
  p.line(`+++ b/${rel}`);
  for (const h of hunksOf(a, b, editScript(a, b))) {
    p.line(`@@ -${range(h.a, h.aLen)} +${range(h.b, h.bLen)} @@`);
    for (const piece of h.pieces) p.piece(piece);
  }
  if (p.omitted > 0) p.out.push(`… (${p.omitted} more diff lines not shown)`);
  return p.out.join('\n');
}

/** What a writing tool's result shows below its summary line: the diff, or why there is none. */
export function diffSection(rel: string, before: string | null, after: string): string {
  if (after.includes('\0') || before?.includes('\0')) return '(no diff: binary content)';
  return unifiedDiff(rel, before, after) || '(no changes: the content is the same)';
}

// A unified diff (as `diff -u` / `git diff` print it, 3 lines of context) of two texts, for the results of the writing
// tools, so the UI can show what changed. jsdiff finds the hunks, up to DIFF_MAX_EDITS edits; beyond that, or for a
// very long middle (the lines between the common start and end), the middle is shown as removed and added whole. The
// printed diff is capped at DIFF_MAX_LINES lines and DIFF_MAX_CHARS characters, with a note saying how much was left
// out; each line is capped at DIFF_MAX_LINE_CHARS. The person sees the whole diff (ToolResult.display): the same
// hunks printed under the much larger DISPLAY_CAPS; an approval card, under none (REQUEST_CAPS).
import { type StructuredPatchHunk, structuredPatch } from 'diff';
import { capLine } from './text';

export const DIFF_CONTEXT = 3;
export const DIFF_MAX_LINES = 200;
export const DIFF_MAX_CHARS = 12_000;
export const DIFF_MAX_LINE_CHARS = 300;
/** How much of a diff the person sees (the model sees DIFF_MAX_LINES / DIFF_MAX_CHARS of it). */
export const DISPLAY_MAX_CHARS = 200_000;
export const DISPLAY_MAX_LINE_CHARS = 2_000;
/** An old file larger than this is not compared (write_file says so instead of showing a diff). */
export const DIFF_MAX_SOURCE_BYTES = 4 * 1024 * 1024;
const DIFF_MAX_EDITS = 1000;
/** Longest middle (lines of both sides together) that is diffed line by line. */
const DIFF_MAX_MIDDLE = 40_000;
const NO_NEWLINE = '\\ No newline at end of file';

/** Lines with their `\n` (a last line without one has none), as jsdiff splits them. */
const linesOf = (text: string): string[] => text.match(/[^\n]*\n|[^\n]+$/g) ?? [];

/** Hunk lines for `lines`, each after `prefix`, with the note after a last line that has no line break. */
function hunkLines(prefix: ' ' | '-' | '+', lines: string[]): string[] {
  return lines.flatMap((l) => (l.endsWith('\n') ? [`${prefix}${l.slice(0, -1)}`] : [`${prefix}${l}`, NO_NEWLINE]));
}

/** The hunks of a → b: jsdiff's, or one hunk with the middle removed and added whole when that is too costly. */
function hunksOf(before: string, after: string): StructuredPatchHunk[] {
  const a = linesOf(before);
  const b = linesOf(after);
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let post = 0;
  while (post < a.length - pre && post < b.length - pre && a[a.length - 1 - post] === b[b.length - 1 - post]) post++;
  const lead = Math.min(DIFF_CONTEXT, pre);
  const trail = Math.min(DIFF_CONTEXT, post);
  if (a.length + b.length - 2 * (pre + post) <= DIFF_MAX_MIDDLE) {
    // Only the middle and its context are handed over: the same hunks, found without tokenizing the rest again.
    const from = pre - lead;
    const middle = (lines: string[]) => lines.slice(from, lines.length - post + trail).join('');
    const options = { context: DIFF_CONTEXT, maxEditLength: DIFF_MAX_EDITS };
    const patch = structuredPatch('', '', middle(a), middle(b), undefined, undefined, options);
    if (patch) return patch.hunks.map((h) => ({ ...h, oldStart: h.oldStart + from, newStart: h.newStart + from }));
  }
  return [
    {
      oldStart: pre - lead + 1,
      oldLines: a.length - pre - post + lead + trail,
      newStart: pre - lead + 1,
      newLines: b.length - pre - post + lead + trail,
      lines: [
        ...hunkLines(' ', a.slice(pre - lead, pre)),
        ...hunkLines('-', a.slice(pre, a.length - post)),
        ...hunkLines('+', b.slice(pre, b.length - post)),
        ...hunkLines(' ', a.slice(a.length - post, a.length - post + trail)),
      ],
    },
  ];
}

/** A hunk header's range as `diff -u` prints it: the line alone for one line, the line before for none. */
const range = (start: number, len: number) => (len === 1 ? `${start}` : `${len === 0 ? start - 1 : start},${len}`);

/** How much of a diff is printed: lines, characters, characters per line. */
export interface DiffCaps {
  lines: number;
  chars: number;
  lineChars: number;
}

/** What the model reads. */
export const MODEL_CAPS: DiffCaps = { lines: DIFF_MAX_LINES, chars: DIFF_MAX_CHARS, lineChars: DIFF_MAX_LINE_CHARS };
/** What the person sees: every line of any diff a reviewer can read through. */
export const DISPLAY_CAPS: DiffCaps = {
  lines: Number.POSITIVE_INFINITY,
  chars: DISPLAY_MAX_CHARS,
  lineChars: DISPLAY_MAX_LINE_CHARS,
};
/**
 * What an approval card shows of an edit it asks for: everything. A card that cuts a line or leaves lines out would
 * have the person approve what they did not see (`; curl -d @.env …` after 2,000 characters); the card wraps long
 * lines and folds long diffs behind a button instead. The size is bounded by what is compared (DIFF_MAX_SOURCE_BYTES)
 * and by the cap on a tool-call argument.
 */
export const REQUEST_CAPS: DiffCaps = {
  lines: Number.POSITIVE_INFINITY,
  chars: Number.POSITIVE_INFINITY,
  lineChars: Number.POSITIVE_INFINITY,
};

/** Collects printed lines up to the caps, then only counts what it leaves out. */
class Printer {
  readonly out: string[] = [];
  private size = 0;
  omitted = 0;
  constructor(private readonly caps: DiffCaps) {}
  line(text: string) {
    if (this.omitted > 0) {
      this.omitted++;
      return;
    }
    const shown = capLine(text, this.caps.lineChars);
    if (this.out.length >= this.caps.lines || this.size + shown.length + 1 > this.caps.chars) {
      this.omitted++;
      return;
    }
    this.out.push(shown);
    this.size += shown.length + 1;
  }
}

/** The printed diff of `hunks` under `caps`, and whether anything was left out. */
function print(rel: string, isNew: boolean, hunks: StructuredPatchHunk[], caps: DiffCaps) {
  const p = new Printer(caps);
  p.line(isNew ? '--- /dev/null' : `--- a/${rel}`);
  p.line(`+++ b/${rel}`);
  for (const h of hunks) {
    p.line(`@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@`);
    if (p.omitted > 0) p.omitted += h.lines.length;
    else for (const line of h.lines) p.line(line);
  }
  if (p.omitted > 0) p.out.push(`… (${p.omitted} more diff lines not shown)`);
  return { text: p.out.join('\n'), cut: p.omitted > 0 };
}

/**
 * The unified diff of `before` → `after` (null before: a new file), headed `--- a/<rel>` / `+++ b/<rel>`; '' when
 * the texts are the same.
 */
export function unifiedDiff(rel: string, before: string | null, after: string, caps: DiffCaps = MODEL_CAPS): string {
  if (before === after) return '';
  return print(rel, before === null, hunksOf(before ?? '', after), caps).text;
}

/** Why there is no diff to show below a writing tool's summary line, or null when there is one. */
function noDiff(before: string | null, after: string): string | null {
  if (after.includes('\0') || before?.includes('\0')) return '(no diff: binary content)';
  if (before === after) return '(no changes: the content is the same)';
  return null;
}

/**
 * What a writing tool's result shows below its summary line — the diff, or why there is none — for the model, and,
 * when the model's is shortened, the one the person sees (`display`, DISPLAY_CAPS). The hunks are found once.
 */
export function diffSections(rel: string, before: string | null, after: string): { model: string; display?: string } {
  const none = noDiff(before, after);
  if (none !== null) return { model: none };
  const hunks = hunksOf(before ?? '', after);
  const model = print(rel, before === null, hunks, MODEL_CAPS);
  if (!model.cut) return { model: model.text };
  return { model: model.text, display: print(rel, before === null, hunks, DISPLAY_CAPS).text };
}

/** The diff (or why there is none) below the summary line of a writing tool's result or request, under `caps`. */
export function diffSection(rel: string, before: string | null, after: string, caps: DiffCaps = MODEL_CAPS): string {
  return noDiff(before, after) ?? unifiedDiff(rel, before, after, caps);
}

// A task title from a model's answer: the model is untrusted, so whatever it sends (reasoning, Markdown, HTML, quotes,
// several lines, invisible characters, a 500-character essay) becomes one plain line of at most 60 characters, or
// null when nothing usable is left (the task then keeps its first-line title).

export const TITLE_MAX_CHARS = 60;

/** Reasoning a model may put before its answer. */
const THINK_BLOCK = /<think>[\s\S]*?(<\/think>|$)/gi;
/** HTML or XML tags (`<b>`, `<script …>`, `</x>`), dropped with their brackets; the text between them stays. */
const TAG = /<\/?[a-z][^<>]*>/gi;
/** Controls, format characters (bidi overrides, zero-width), lone surrogates, private use, unassigned code points. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}]/gu;
/** A label a model writes before its answer ("Title:", "**Title** -"). */
const LABEL = /^(?:task\s+)?title\s*[:：\-–—]\s*/i;
/** Markdown's markers at a line's start: headings, quotes, list bullets and numbers. */
const LINE_MARKERS = /^(?:#{1,6}\s+|>\s*|[-*+•]\s+|\d+[.)]\s+)+/;
/** Emphasis and code marks, and a link's brackets (its text stays, its address goes). */
const INLINE_MARKS = /\*\*|__|[*_`~]/g;
const LINK = /!?\[([^\]]*)\]\([^)]*\)/g;
/** Quotes a model wraps its answer in. */
const WRAPPING_QUOTES = /^["'“”‘’「『«]+|["'“”‘’」』»]+$/g;

export function sanitizeTitle(answer: string): string | null {
  const text = answer.replace(THINK_BLOCK, '').replace(LINK, '$1').replace(TAG, '');
  const line = text
    .split(/\r\n|[\n\r\u2028\u2029]/)
    .map(cleanLine)
    .find((l) => l !== '');
  return line ? shorten(line, TITLE_MAX_CHARS) : null;
}

function cleanLine(raw: string): string {
  let line = raw.replace(INVISIBLE, ' ').replace(/\s+/g, ' ').trim();
  line = line.replace(LINE_MARKERS, '').replace(INLINE_MARKS, '').trim();
  line = line.replace(LABEL, '').replace(WRAPPING_QUOTES, '').trim();
  // A trailing full stop is how a sentence ends, not a title.
  return line.replace(/[.。]+$/, '').trim();
}

/** At most `max` characters (code points), cut at a word when one ends in the last third, with an ellipsis. */
function shorten(line: string, max: number): string {
  const chars = [...line];
  if (chars.length <= max) return line;
  const head = chars.slice(0, max - 1).join('');
  const space = head.lastIndexOf(' ');
  const cut = space > (max * 2) / 3 ? head.slice(0, space) : head;
  return `${cut.trimEnd()}…`;
}

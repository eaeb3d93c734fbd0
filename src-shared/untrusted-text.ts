// The one renderer of text the model, a tool or a remote party wrote, for everything a person reads it in: approval
// cards, task titles, the Activity log, OS notifications and webhook payloads. Characters that do not show as what
// they are — controls, bidi overrides and isolates, zero-width and other invisible characters, lone surrogates,
// private-use and unassigned code points, line and paragraph separators, and in a command every space but U+0020 —
// become visible escapes such as `⟨U+202E⟩` and are counted, so a card can say that the text holds them. The plain
// form (`plain`) is for notifications, payloads and logs; the segments are for the UI to mark the escapes.

export type TextSegment =
  | { kind: 'text'; text: string }
  /** A character shown as `⟨U+XXXX⟩`; `name` says what it is, when it is a well-known one. */
  | { kind: 'escape'; text: string; codePoint: number; name?: string }
  /** A run of blank lines (`collapseBlankLines`) shown as one line that says how many. */
  | { kind: 'gap'; text: string; lines: number };

export interface UntrustedRenderOptions {
  /**
   * `prose` (default): titles, messages, notices. `command`: text a shell or a program reads, where a space that is
   * not U+0020 is a different character than it looks (NBSP inside `rm a b` makes one argument).
   */
  mode?: 'prose' | 'command';
  /** Keep line breaks (U+000A) as line breaks; otherwise they are escaped and the text is one line. Default true. */
  multiline?: boolean;
  /** Show a run of at least this many blank lines as one `⟨N blank lines⟩` line (commands padded to hide their end). */
  collapseBlankLines?: number;
}

export interface RenderedText {
  segments: TextSegment[];
  /** The text with every escape written out, for places that show plain text. */
  plain: string;
  /** How many characters were shown as escapes. */
  hidden: number;
  /** Lines of the original text (a trailing line break does not start a line). */
  lines: number;
}

/**
 * What is escaped, by Unicode property where one fits: controls (Cc: C0, DEL, C1 — ESC of an ANSI sequence
 * included), format characters (Cf: bidi embeddings, overrides, isolates and marks, U+061C, zero-width space and
 * joiners, word joiner, invisible operators, BOM, soft hyphen, U+180E, tag characters), surrogates (Cs: only lone
 * ones can occur), private use (Co), unassigned (Cn), line and paragraph separators (Zl, Zp), the variation selectors
 * (Mn, but invisible: "smuggling" hides bytes in runs of them), and letters or marks that draw as nothing: the Hangul
 * fillers U+115F, U+1160, U+3164, U+FFA0, the combining grapheme joiner U+034F, the Khmer inherent vowels U+17B4/5,
 * the Mongolian free variation selectors U+180B–U+180F and the braille blank U+2800. The `u` flag walks code points,
 * so an astral character is one match and a lone surrogate is another.
 */
const SUSPECT_CLASS =
  '\\p{Cc}\\p{Cf}\\p{Cs}\\p{Co}\\p{Cn}\\p{Zl}\\p{Zp}\\u{FE00}-\\u{FE0F}\\u{E0100}-\\u{E01EF}\\u115F\\u1160\\u3164\\uFFA0\\u034F\\u17B4\\u17B5\\u180B-\\u180F\\u2800';
const SUSPECT = new RegExp(`[${SUSPECT_CLASS}]`, 'gu');
/** With `mode: 'command'`, also every space separator but U+0020 (NBSP, the en/em spaces, U+3000, …). */
const SUSPECT_IN_COMMAND = new RegExp(`[${SUSPECT_CLASS}]|[^\\P{Zs} ]`, 'gu');

const EMOJI = /\p{Extended_Pictographic}/u;
/** Emoji, the skin-tone modifiers included. */
const EMOJI_PRESENTATION = /\p{Emoji}/u;

/** Names of the characters a person most often meets in an escape, for the tooltip. */
const NAMES = new Map<number, string>([
  [0x00, 'NULL'],
  [0x08, 'BACKSPACE'],
  [0x09, 'TAB'],
  [0x0a, 'LINE FEED'],
  [0x0d, 'CARRIAGE RETURN'],
  [0x1b, 'ESCAPE (starts a terminal control sequence)'],
  [0x7f, 'DELETE'],
  [0x85, 'NEXT LINE'],
  [0xa0, 'NO-BREAK SPACE'],
  [0xad, 'SOFT HYPHEN'],
  [0x061c, 'ARABIC LETTER MARK'],
  [0x180e, 'MONGOLIAN VOWEL SEPARATOR'],
  [0x200b, 'ZERO WIDTH SPACE'],
  [0x200c, 'ZERO WIDTH NON-JOINER'],
  [0x200d, 'ZERO WIDTH JOINER'],
  [0x200e, 'LEFT-TO-RIGHT MARK'],
  [0x200f, 'RIGHT-TO-LEFT MARK'],
  [0x2028, 'LINE SEPARATOR'],
  [0x2029, 'PARAGRAPH SEPARATOR'],
  [0x202a, 'LEFT-TO-RIGHT EMBEDDING'],
  [0x202b, 'RIGHT-TO-LEFT EMBEDDING'],
  [0x202c, 'POP DIRECTIONAL FORMATTING'],
  [0x202d, 'LEFT-TO-RIGHT OVERRIDE'],
  [0x202e, 'RIGHT-TO-LEFT OVERRIDE'],
  [0x2060, 'WORD JOINER'],
  [0x2066, 'LEFT-TO-RIGHT ISOLATE'],
  [0x2067, 'RIGHT-TO-LEFT ISOLATE'],
  [0x2068, 'FIRST STRONG ISOLATE'],
  [0x2069, 'POP DIRECTIONAL ISOLATE'],
  [0x3000, 'IDEOGRAPHIC SPACE'],
  [0xfeff, 'ZERO WIDTH NO-BREAK SPACE (BOM)'],
]);

/** `⟨U+202E⟩`: at least four hex digits, as Unicode writes code points. */
export const escapeOf = (codePoint: number) => `⟨U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}⟩`;

const codePointBefore = (text: string, index: number): string => {
  const low = text.charCodeAt(index - 1);
  if (index >= 2 && low >= 0xdc00 && low <= 0xdfff) {
    const high = text.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.slice(index - 2, index);
  }
  return text.slice(index - 1, index);
};
const codePointAt = (text: string, index: number) => String.fromCodePoint(text.codePointAt(index) ?? 0);

/**
 * The exceptions that keep emoji whole, where the invisible character is part of a picture and changes nothing a
 * program reads: a zero-width joiner between two pictographs (👩‍💻), and one emoji variation selector (U+FE0E /
 * U+FE0F) right after an emoji. A second selector, or one after a letter, is escaped.
 */
function keptInEmoji(text: string, index: number, char: string): boolean {
  if (index === 0) return false;
  const before = codePointBefore(text, index);
  if (char === '\uFE0F' || char === '\uFE0E') return EMOJI_PRESENTATION.test(before) && !/[\uFE0E\uFE0F]/.test(before);
  if (char !== '\u200D') return false;
  const after = index + 1 < text.length ? codePointAt(text, index + 1) : '';
  const base =
    before === '\uFE0F' || /[\u{1F3FB}-\u{1F3FF}]/u.test(before)
      ? codePointBefore(text, index - before.length)
      : before;
  return EMOJI.test(base) && EMOJI.test(after);
}

/** `text` as a person may safely read it: see the file's opening comment. */
export function renderUntrusted(text: string, options: UntrustedRenderOptions = {}): RenderedText {
  const multiline = options.multiline ?? true;
  const pattern = options.mode === 'command' ? SUSPECT_IN_COMMAND : SUSPECT;
  const segments: TextSegment[] = [];
  let hidden = 0;
  let from = 0;
  const pushText = (chunk: string) => {
    if (chunk === '') return;
    const last = segments.at(-1);
    if (last?.kind === 'text') last.text += chunk;
    else segments.push({ kind: 'text', text: chunk });
  };
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const char = match[0];
    const at = match.index;
    if ((multiline && char === '\n') || (multiline && char === '\t') || keptInEmoji(text, at, char)) continue;
    pushText(text.slice(from, at));
    const codePoint = char.codePointAt(0) ?? 0;
    const name = NAMES.get(codePoint);
    segments.push({ kind: 'escape', text: escapeOf(codePoint), codePoint, ...(name ? { name } : {}) });
    hidden++;
    from = at + char.length;
  }
  pushText(text.slice(from));
  const collapsed = options.collapseBlankLines ? collapseBlankLines(segments, options.collapseBlankLines) : segments;
  return {
    segments: collapsed,
    plain: collapsed.map((s) => s.text).join(''),
    hidden,
    lines: lineCount(text),
  };
}

/** The plain form alone (notifications, webhook payloads, logs, the tray menu). */
export const plainUntrusted = (text: string, options?: UntrustedRenderOptions) => renderUntrusted(text, options).plain;

/** One line of untrusted text, at most `max` characters (escapes counted as written), cut with `…`. */
export function untrustedLine(text: string, max: number): string {
  const line = plainUntrusted(text.trim().split('\n')[0] ?? '', { multiline: false });
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function lineCount(text: string): number {
  if (text === '') return 1;
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return text.endsWith('\n') ? lines - 1 : lines;
}

const BLANK_RUN = /\n(?:[ \t]*\n)+/g;

/** Text segments with runs of `min` or more blank lines made `gap` segments (escapes are never part of a run). */
function collapseBlankLines(segments: TextSegment[], min: number): TextSegment[] {
  const out: TextSegment[] = [];
  for (const segment of segments) {
    if (segment.kind !== 'text') {
      out.push(segment);
      continue;
    }
    let from = 0;
    for (const match of segment.text.matchAll(BLANK_RUN)) {
      const blank = match[0].split('\n').length - 2;
      if (blank < min) continue;
      const at = match.index ?? 0;
      out.push({ kind: 'text', text: `${segment.text.slice(from, at)}\n` });
      out.push({ kind: 'gap', text: `⟨${blank} blank lines⟩`, lines: blank });
      out.push({ kind: 'text', text: '\n' });
      from = at + match[0].length;
    }
    out.push({ kind: 'text', text: segment.text.slice(from) });
  }
  return out.filter((s) => s.text !== '');
}

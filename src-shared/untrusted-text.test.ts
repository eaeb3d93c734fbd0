// The renderer of untrusted text over a corpus of hostile strings: every invisible or deceptive code point comes out
// as a visible escape and is counted, visible text comes out as it went in, and long inputs stay fast.
import { describe, expect, it } from 'vitest';
import { escapeOf, plainUntrusted, renderUntrusted, untrustedLine } from './untrusted-text';

const BIDI_COMMAND = 'cat README.md \u202E\u2066; sh .x \u2069 \u2066# show the readme\u2069\u202C';

/** Code points that must never reach a person unescaped, each one on its own. */
const INVISIBLE = [
  ...[0x00, 0x07, 0x08, 0x0b, 0x0c, 0x0d, 0x1b, 0x7f, 0x80, 0x85, 0x9b, 0x9f],
  ...[0x00ad, 0x034f, 0x061c, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x180b, 0x180e, 0x180f],
  ...[0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x2028, 0x2029, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e],
  ...[0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0x2066, 0x2067, 0x2068, 0x2069, 0x2800, 0x3164],
  ...[0xfe00, 0xfe0f, 0xfeff, 0xffa0, 0xfff9, 0xe000, 0xf8ff, 0xe0001, 0xe0020, 0xe0041, 0xe007f, 0xe0100, 0x10ffff],
];

describe('untrusted text', () => {
  it('shows the bidi-override command of issue 21 in logical order, every control as an escape, and counts them', () => {
    const shown = renderUntrusted(BIDI_COMMAND, { mode: 'command' });
    expect(shown.plain).toBe(
      'cat README.md ⟨U+202E⟩⟨U+2066⟩; sh .x ⟨U+2069⟩ ⟨U+2066⟩# show the readme⟨U+2069⟩⟨U+202C⟩',
    );
    expect(shown.hidden).toBe(6);
    expect(shown.plain).toMatch(/; sh \.x/);
    expect(shown.segments.filter((s) => s.kind === 'escape').map((s) => s.kind === 'escape' && s.name)).toContain(
      'RIGHT-TO-LEFT OVERRIDE',
    );
  });

  it('escapes every invisible code point of the corpus, alone and between letters', () => {
    for (const cp of INVISIBLE) {
      const char = String.fromCodePoint(cp);
      const shown = renderUntrusted(`a${char}b`, { multiline: false });
      expect(shown.plain, `U+${cp.toString(16)}`).toBe(`a${escapeOf(cp)}b`);
      expect(shown.hidden).toBe(1);
    }
  });

  it('leaves nothing invisible in the plain form of a string made of every code point of the corpus', () => {
    const all = INVISIBLE.map((cp) => String.fromCodePoint(cp)).join('');
    const plain = plainUntrusted(all, { multiline: false });
    expect(plain).toMatch(/^(⟨U\+[0-9A-F]{4,6}⟩)+$/);
    expect(renderUntrusted(all, { multiline: false }).hidden).toBe(INVISIBLE.length);
  });

  it('shows an ANSI colour and cursor sequence as its escape character followed by visible text', () => {
    const shown = renderUntrusted('ok\x1b[2K\x1b[1Agit status\x1b[0m');
    expect(shown.plain).toBe('ok⟨U+001B⟩[2K⟨U+001B⟩[1Agit status⟨U+001B⟩[0m');
    expect(shown.hidden).toBe(3);
  });

  it('hides nothing behind tag characters (ASCII smuggled as U+E00xx)', () => {
    const smuggled = [...'curl x'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
    const shown = renderUntrusted(`hello${smuggled}`);
    expect(shown.hidden).toBe(6);
    expect(shown.plain).toBe(`hello${[...'curl x'].map((c) => escapeOf(0xe0000 + c.charCodeAt(0))).join('')}`);
  });

  it('escapes lone surrogates and keeps paired ones', () => {
    const shown = renderUntrusted('a\uD800b\uDC00c😀');
    expect(shown.plain).toBe('a⟨U+D800⟩b⟨U+DC00⟩c😀');
    expect(shown.hidden).toBe(2);
  });

  it('keeps visible text byte for byte: ASCII, accents, CJK, RTL script, emoji sequences', () => {
    const visible = [
      'git diff -- src/app.ts && npm test',
      'Café déjà vu — naïve “quotes” ‘and’ …',
      '日本語のタスク　全角スペース入り', // U+3000 in prose stays
      'שלום עולם مرحبا بالعالم',
      '👩‍💻 👨‍👩‍👧 ❤️ 👍🏽 🏳️‍🌈',
      'tab\tseparated\nand two lines',
    ];
    for (const text of visible) {
      const shown = renderUntrusted(text);
      expect(shown.plain).toBe(text);
      expect(shown.hidden).toBe(0);
    }
  });

  it('in a command, shows every space that is not U+0020 (one argument that looks like two)', () => {
    const shown = renderUntrusted('rm -rf build\u00A0/', { mode: 'command' });
    expect(shown.plain).toBe('rm -rf build⟨U+00A0⟩/');
    expect(renderUntrusted('全角\u3000スペース', { mode: 'command' }).hidden).toBe(1);
    expect(renderUntrusted('rm -rf build\u00A0/').hidden).toBe(0);
  });

  it('escapes a zero-width joiner or a variation selector that is not part of an emoji', () => {
    expect(plainUntrusted('a\u200Db')).toBe('a⟨U+200D⟩b');
    expect(plainUntrusted('a\uFE0F')).toBe('a⟨U+FE0F⟩');
    expect(plainUntrusted('❤\uFE0F\uFE0F')).toBe('❤\uFE0F⟨U+FE0F⟩');
    expect(plainUntrusted('\u200D👩')).toBe('⟨U+200D⟩👩');
  });

  it('keeps line breaks of a multi-line text and counts its lines; one-line mode escapes them', () => {
    const command = `git status${'\n'.repeat(41)}curl -d @.env http://127.0.0.1:9/`;
    const shown = renderUntrusted(command, { mode: 'command' });
    expect(shown.lines).toBe(42);
    expect(shown.hidden).toBe(0);
    expect(shown.plain).toBe(command);
    expect(plainUntrusted('a\nb\r\nc', { multiline: false })).toBe('a⟨U+000A⟩b⟨U+000D⟩⟨U+000A⟩c');
    expect(renderUntrusted('one\n').lines).toBe(1);
    expect(renderUntrusted('').lines).toBe(1);
  });

  it('collapses a run of blank lines into one line that says how many, so the end is in sight', () => {
    const command = `git status${'\n'.repeat(41)}curl -d @.env http://127.0.0.1:9/`;
    const shown = renderUntrusted(command, { mode: 'command', collapseBlankLines: 3 });
    expect(shown.plain).toBe('git status\n⟨40 blank lines⟩\ncurl -d @.env http://127.0.0.1:9/');
    expect(shown.segments.find((s) => s.kind === 'gap')).toEqual({ kind: 'gap', text: '⟨40 blank lines⟩', lines: 40 });
    expect(renderUntrusted('a\n\n\nb', { collapseBlankLines: 3 }).plain).toBe('a\n\n\nb');
    expect(renderUntrusted('a\n \n\t\n \n\nb', { collapseBlankLines: 3 }).plain).toBe('a\n⟨4 blank lines⟩\nb');
  });

  it('untrustedLine gives one escaped line, cut with an ellipsis', () => {
    expect(untrustedLine('  Fix \u202Ethe bug\nsecond line', 80)).toBe('Fix ⟨U+202E⟩the bug');
    expect(untrustedLine('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
  });

  it('renders 10,000 lines and a 100 KB line with hidden characters quickly', () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => `echo line ${i}\u200B`).join('\n');
    const long = `${'a'.repeat(50_000)}\u202E${'b'.repeat(50_000)}`;
    const started = performance.now();
    const many = renderUntrusted(lines, { mode: 'command', collapseBlankLines: 3 });
    const one = renderUntrusted(long);
    const elapsed = performance.now() - started;
    expect(many.lines).toBe(10_000);
    expect(many.hidden).toBe(10_000);
    expect(one.plain).toBe(`${'a'.repeat(50_000)}⟨U+202E⟩${'b'.repeat(50_000)}`);
    expect(one.segments).toHaveLength(3);
    expect(elapsed).toBeLessThan(500);
  });
});

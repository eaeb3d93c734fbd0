import { applyPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { DIFF_MAX_CHARS, DIFF_MAX_LINE_CHARS, DIFF_MAX_LINES, diffSection, unifiedDiff } from './diff';

const lines = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => `${line(i)}\n`).join('');

describe('unifiedDiff', () => {
  it('prints `diff -u` hunk headers: one number for one line, start-1,0 for none', () => {
    expect(unifiedDiff('a.txt', 'x\ny\n', '')).toBe('--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +0,0 @@\n-x\n-y');
    expect(unifiedDiff('a.txt', null, 'x\n')).toBe('--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1 @@\n+x');
    expect(unifiedDiff('a.txt', '', 'x\n')).toBe('--- a/a.txt\n+++ b/a.txt\n@@ -0,0 +1 @@\n+x');
    expect(unifiedDiff('a.txt', 'same\n', 'same\n')).toBe('');
  });

  it('marks a last line without a line break, and keeps a \\r before the break', () => {
    expect(unifiedDiff('a', 'x\ny', 'x\ny\n')).toBe(
      '--- a/a\n+++ b/a\n@@ -1,2 +1,2 @@\n x\n-y\n\\ No newline at end of file\n+y',
    );
    expect(unifiedDiff('a', 'x\r\ny\r\n', 'x\r\nz\r\n')).toBe('--- a/a\n+++ b/a\n@@ -1,2 +1,2 @@\n x\r\n-y\r\n+z\r');
  });

  it('is a patch that turns the old text into the new one', () => {
    const before = lines(60, (i) => `line ${i}`);
    const after = before.replace('line 3\n', '').replace('line 30\n', 'line 30\nnew\n').replace('line 59\n', 'end');
    const patch = unifiedDiff('a', before, after);
    expect(patch.split('\n').filter((l) => l.startsWith('@@'))).toEqual([
      '@@ -1,7 +1,6 @@',
      '@@ -29,6 +28,7 @@',
      '@@ -57,4 +57,4 @@',
    ]);
    expect(applyPatch(before, `${patch}\n`)).toBe(after);
    const swapped = unifiedDiff('a', 'a\nb\nc\n', 'c\nb\na\n');
    expect(applyPatch('a\nb\nc\n', `${swapped}\n`)).toBe('c\nb\na\n');
    expect(swapped.split('\n').filter((l) => /^[-+]/.test(l))).toHaveLength(2 + 4);
  });

  it('shows a middle with more than 1000 edits as removed and added whole', () => {
    const before = lines(3000, (i) => `l${i}`);
    const after = lines(3000, (i) => (i % 2 && i < 2997 ? `m${i}` : `l${i}`));
    const body = unifiedDiff('a', before, after).split('\n').slice(2);
    expect(body.slice(0, 4)).toEqual(['@@ -1,2999 +1,2999 @@', ' l0', '-l1', '-l2']);
    expect(body.at(-1)).toBe(`… (${2 + 1 + (1 + 2995 + 2995 + 3) - DIFF_MAX_LINES} more diff lines not shown)`);
    const small = unifiedDiff(
      'a',
      lines(900, (i) => `l${i}`),
      lines(900, (i) => (i % 2 ? `m${i}` : `l${i}`)),
    );
    expect(small.split('\n').slice(3, 7)).toEqual([' l0', '-l1', '+m1', ' l2']);
  });

  it('caps the diff at DIFF_MAX_LINES lines, DIFF_MAX_CHARS characters and long lines, counting what it leaves out', () => {
    const big = unifiedDiff(
      'a',
      null,
      lines(5000, (i) => `l${i}`),
    ).split('\n');
    expect(big).toHaveLength(DIFF_MAX_LINES + 1);
    expect(big.at(-2)).toBe(`+l${DIFF_MAX_LINES - 4}`);
    expect(big.at(-1)).toBe(`… (${5003 - DIFF_MAX_LINES} more diff lines not shown)`);
    const wide = unifiedDiff(
      'a',
      null,
      lines(100, () => 'y'.repeat(290)),
    );
    expect(wide.length).toBeLessThanOrEqual(DIFF_MAX_CHARS + 50);
    expect(wide.split('\n').at(-1)).toBe('… (60 more diff lines not shown)');
    const long = unifiedDiff('a', 'a\n', `${'x'.repeat(1000)}\n`).split('\n');
    expect(long.at(-1)).toBe(`+${'x'.repeat(DIFF_MAX_LINE_CHARS - 1)}… (701 more characters in this line)`);
  });
});

describe('diffSection', () => {
  it('says why there is no diff for binary or unchanged content', () => {
    expect(diffSection('a', 'x\0', 'y')).toBe('(no diff: binary content)');
    expect(diffSection('a', null, 'y\0')).toBe('(no diff: binary content)');
    expect(diffSection('a', 'same', 'same')).toBe('(no changes: the content is the same)');
    expect(diffSection('a', null, 'x\n')).toBe('--- /dev/null\n+++ b/a\n@@ -0,0 +1 @@\n+x');
  });
});

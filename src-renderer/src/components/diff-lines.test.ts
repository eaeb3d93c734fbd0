import { describe, expect, it } from 'vitest';
import { parseDiff } from './diff-lines';

describe('parseDiff', () => {
  it('reads the file, hunks and line numbers of a unified diff after a summary line', () => {
    const text = [
      'Edited src/a.ts: 1 replacement',
      '--- a/src/a.ts',
      '+++ b/src/a.ts',
      '@@ -3,3 +3,4 @@',
      ' keep',
      '-old',
      '+new',
      '+more',
      ' tail',
      '\\ No newline at end of file',
    ].join('\n');
    const diff = parseDiff(text);
    expect(diff?.file).toBe('src/a.ts');
    expect(diff?.added).toBe(2);
    expect(diff?.removed).toBe(1);
    expect(diff?.lines.filter((l) => l.kind !== 'file' && l.kind !== 'hunk' && l.kind !== 'note')).toEqual([
      { kind: 'context', text: 'keep', oldNo: 3, newNo: 3 },
      { kind: 'removed', text: 'old', oldNo: 4, newNo: null },
      { kind: 'added', text: 'new', oldNo: null, newNo: 4 },
      { kind: 'added', text: 'more', oldNo: null, newNo: 5 },
      { kind: 'context', text: 'tail', oldNo: 5, newNo: 6 },
    ]);
    expect(diff?.lines.at(-1)).toEqual({ kind: 'note', text: '\\ No newline at end of file' });
  });

  it('a new file names its +++ side; text without a hunk is no diff', () => {
    const diff = parseDiff('--- /dev/null\n+++ b/new.md\n@@ -0,0 +1,2 @@\n+# Title\n+body');
    expect(diff?.file).toBe('new.md');
    expect(diff?.lines.filter((l) => l.kind === 'added').map((l) => ('newNo' in l ? l.newNo : null))).toEqual([1, 2]);
    expect(parseDiff('Exit code: 0\nall good')).toBeNull();
    expect(parseDiff('--- just a rule\nnot a diff')).toBeNull();
  });
});

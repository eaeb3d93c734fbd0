import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshot, tempWorkspace, text } from '../../test-support/tools';
import { editFileTool } from './edit-file';

describe('edit_file', () => {
  it('P4.55 replaces a unique old_string; `$` patterns in new_string are literal', async () => {
    const t = tempWorkspace();
    const f = t.put('a.ts', 'const a = 1;\nconst b = 2;\n');
    const out = text(
      await editFileTool.execute({ path: 'a.ts', old_string: 'b = 2', new_string: "b = '$&$1'" }, t.ctx()),
    );
    expect(out).toBe(
      "Edited a.ts: replaced 1 occurrence\n--- a/a.ts\n+++ b/a.ts\n@@ -1,2 +1,2 @@\n const a = 1;\n-const b = 2;\n+const b = '$&$1';",
    );
    expect(fs.readFileSync(f, 'utf8')).toBe("const a = 1;\nconst b = '$&$1';\n");
  });

  it('P4.55 old_string not unique without replace_all → Error, file unchanged; with replace_all → all replaced', async () => {
    const t = tempWorkspace();
    const f = t.put('a.txt', 'x x x');
    expect(text(await editFileTool.execute({ path: 'a.txt', old_string: 'x', new_string: 'y' }, t.ctx()))).toMatch(
      /^Error: old_string occurs 3 times in a.txt; .* The file is unchanged/,
    );
    expect(fs.readFileSync(f, 'utf8')).toBe('x x x');
    expect(
      text(
        await editFileTool.execute({ path: 'a.txt', old_string: 'x', new_string: 'yy', replace_all: true }, t.ctx()),
      ),
    ).toBe(
      'Edited a.txt: replaced 3 occurrences\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-x x x\n\\ No newline at end of file\n+yy yy yy\n\\ No newline at end of file',
    );
    expect(fs.readFileSync(f, 'utf8')).toBe('yy yy yy');
  });

  it('P4.55 old_string missing → Error, file unchanged; missing file, binary file, no-op edit → Error', async () => {
    const t = tempWorkspace();
    t.put('a.txt', 'abc');
    t.put('b.bin', new Uint8Array([0, 1, 2]));
    const before = snapshot(t.ws);
    const e = (args: Parameters<typeof editFileTool.execute>[0]) => editFileTool.execute(args, t.ctx()).then(text);
    expect(await e({ path: 'a.txt', old_string: 'zzz', new_string: 'y' })).toMatch(
      /^Error: old_string was not found in a.txt/,
    );
    expect(await e({ path: 'nope.txt', old_string: 'a', new_string: 'b' })).toMatch(/^Error: nope.txt does not exist/);
    expect(await e({ path: 'b.bin', old_string: '\u0001', new_string: 'b' })).toMatch(/^Error: b.bin is a binary file/);
    expect(await e({ path: 'a.txt', old_string: 'a', new_string: 'a' })).toMatch(
      /^Error: old_string and new_string are the same/,
    );
    expect(snapshot(t.ws)).toEqual(before);
  });

  it('P4.32 without edit permission → Error; file unchanged', async () => {
    const t = tempWorkspace();
    const f = t.put('a.txt', 'abc');
    const out = await editFileTool.execute(
      { path: 'a.txt', old_string: 'b', new_string: 'X' },
      t.ctx({ canEdit: false }),
    );
    expect(text(out)).toMatch(/^Error: edit_file is not allowed/);
    expect(fs.readFileSync(f, 'utf8')).toBe('abc');
  });

  it('P4.33 `..`, absolute outside and a symlink out → Error; the outside file unchanged', async () => {
    const t = tempWorkspace();
    const outsideFile = path.join(t.outside, 'o.txt');
    fs.writeFileSync(outsideFile, 'secret');
    fs.symlinkSync(outsideFile, path.join(t.ws, 'link.txt'));
    for (const p of ['../outside/o.txt', outsideFile, 'link.txt']) {
      const out = await editFileTool.execute({ path: p, old_string: 'secret', new_string: 'pwned' }, t.ctx());
      expect(text(out)).toMatch(/^Error/);
    }
    expect(fs.readFileSync(outsideFile, 'utf8')).toBe('secret');
  });

  it('P4.55 the diff shows separate hunks with 3 lines of context each', async () => {
    const t = tempWorkspace();
    const lines = Array.from({ length: 30 }, (_, i) => `l${i + 1}`);
    t.put('a.txt', `${lines.join('\n')}\n`);
    const out = text(
      await editFileTool.execute({ path: 'a.txt', old_string: 'l5\n', new_string: 'l5\nnew\n' }, t.ctx()),
    );
    expect(out.split('\n').slice(0, 4)).toEqual([
      'Edited a.txt: replaced 1 occurrence',
      '--- a/a.txt',
      '+++ b/a.txt',
      '@@ -3,6 +3,7 @@',
    ]);
    const two = text(
      await editFileTool.execute({ path: 'a.txt', old_string: 'l2', new_string: 'L2', replace_all: true }, t.ctx()),
    );
    // l2, l20..l29 change: one hunk at the top, one for l20–l29 (far apart).
    expect(two.split('\n').filter((l) => l.startsWith('@@'))).toEqual(['@@ -1,5 +1,5 @@', '@@ -18,14 +18,14 @@']);
  });
});

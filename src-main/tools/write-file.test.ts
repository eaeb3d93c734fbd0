import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshot, tempWorkspace, text } from '../../test-support/tools';
import { DIFF_MAX_LINES } from './diff';
import { writeFileTool } from './write-file';

describe('write_file', () => {
  it('P4.55 creates a file (and its folders) or replaces one, keeping its mode, leaving no temp file', async () => {
    const t = tempWorkspace();
    expect(text(await writeFileTool.execute({ path: 'src/new/a.txt', content: 'héllo' }, t.ctx()))).toBe(
      'Created src/new/a.txt (6 bytes)\n--- /dev/null\n+++ b/src/new/a.txt\n@@ -0,0 +1 @@\n+héllo\n\\ No newline at end of file',
    );
    expect(fs.readFileSync(path.join(t.ws, 'src/new/a.txt'), 'utf8')).toBe('héllo');
    const script = t.put('run.sh', 'old');
    fs.chmodSync(script, 0o755);
    expect(text(await writeFileTool.execute({ path: 'run.sh', content: 'new' }, t.ctx())).split('\n')[0]).toBe(
      'Replaced run.sh (3 bytes)',
    );
    expect(fs.readFileSync(script, 'utf8')).toBe('new');
    expect(fs.statSync(script).mode & 0o777).toBe(0o755);
    expect(Object.keys(snapshot(t.ws)).sort()).toEqual(['run.sh', 'src', 'src/new', 'src/new/a.txt']);
  });

  it('P4.32 without edit permission → Error; nothing written', async () => {
    const t = tempWorkspace();
    t.put('a.txt', 'keep');
    const out = text(await writeFileTool.execute({ path: 'a.txt', content: 'x' }, t.ctx({ canEdit: false })));
    expect(out).toMatch(/^Error: write_file is not allowed: this movement has no permission to edit files/);
    await writeFileTool.execute({ path: 'b.txt', content: 'x' }, t.ctx({ canEdit: false }));
    expect(snapshot(t.ws)).toEqual({ 'a.txt': 'keep' });
  });

  it('P4.33 `..`, absolute outside, symlinked folder or file out → Error; nothing touched on either side', async () => {
    const t = tempWorkspace();
    fs.writeFileSync(path.join(t.outside, 'target.txt'), 'outside');
    fs.symlinkSync(t.outside, path.join(t.ws, 'out'));
    fs.symlinkSync(path.join(t.outside, 'target.txt'), path.join(t.ws, 'link.txt'));
    fs.symlinkSync(path.join(t.outside, 'nowhere.txt'), path.join(t.ws, 'dangling.txt'));
    const before = { ws: snapshot(t.ws), outside: snapshot(t.outside) };
    for (const p of [
      '../outside/target.txt',
      path.join(t.outside, 'x.txt'),
      'out/target.txt',
      'out/new/x.txt',
      'link.txt',
      'dangling.txt',
    ]) {
      expect(text(await writeFileTool.execute({ path: p, content: 'pwned' }, t.ctx()))).toMatch(/^Error/);
    }
    expect({ ws: snapshot(t.ws), outside: snapshot(t.outside) }).toEqual(before);
  });

  it('a link that stays inside is written through to its target', async () => {
    const t = tempWorkspace();
    const target = t.put('real.txt', 'a');
    fs.symlinkSync(target, path.join(t.ws, 'alias.txt'));
    expect(text(await writeFileTool.execute({ path: 'alias.txt', content: 'b\n' }, t.ctx()))).toBe(
      'Replaced real.txt (2 bytes)\n--- a/real.txt\n+++ b/real.txt\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b',
    );
    expect(fs.readFileSync(target, 'utf8')).toBe('b\n');
    expect(fs.lstatSync(path.join(t.ws, 'alias.txt')).isSymbolicLink()).toBe(true);
  });

  it('refuses folders and the protected .maestro/ settings', async () => {
    const t = tempWorkspace();
    t.put('dir/x', '');
    t.put('.maestro/policy.json', '{}');
    expect(text(await writeFileTool.execute({ path: 'dir', content: '' }, t.ctx()))).toMatch(/^Error: dir is a folder/);
    expect(
      text(
        await writeFileTool.execute(
          { path: '.maestro/policy.json', content: '{"run_command":{"allow":["*"]}}' },
          t.ctx(),
        ),
      ),
    ).toMatch(/^Error: .*\.maestro/);
    expect(fs.readFileSync(path.join(t.ws, '.maestro/policy.json'), 'utf8')).toBe('{}');
  });

  it('P4.55 the result carries a unified diff after the summary; unchanged and binary content say so', async () => {
    const t = tempWorkspace();
    t.put('a.txt', 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n');
    const out = text(
      await writeFileTool.execute(
        { path: 'a.txt', content: 'one\ntwo\nthree\nFOUR\nfive\nsix\nseven\neight\n' },
        t.ctx(),
      ),
    );
    expect(out).toBe(
      [
        'Replaced a.txt (40 bytes)',
        '--- a/a.txt',
        '+++ b/a.txt',
        '@@ -1,7 +1,8 @@',
        ' one',
        ' two',
        ' three',
        '-four',
        '+FOUR',
        ' five',
        ' six',
        ' seven',
        '+eight',
      ].join('\n'),
    );
    expect(text(await writeFileTool.execute({ path: 'a.txt', content: 'x' }, t.ctx()))).not.toContain('four\n five');
    expect(text(await writeFileTool.execute({ path: 'a.txt', content: 'x' }, t.ctx()))).toBe(
      'Replaced a.txt (1 bytes)\n(no changes: the content is the same)',
    );
    t.put('b.bin', new Uint8Array([0, 1, 2]));
    expect(text(await writeFileTool.execute({ path: 'b.bin', content: 'text' }, t.ctx()))).toBe(
      'Replaced b.bin (4 bytes)\n(no diff: the old file was binary)',
    );
  });

  it('a huge new file gets a capped diff with a note', async () => {
    const t = tempWorkspace();
    const content = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n');
    const lines = text(await writeFileTool.execute({ path: 'big.txt', content }, t.ctx())).split('\n');
    expect(lines.length).toBeLessThanOrEqual(DIFF_MAX_LINES + 2);
    expect(lines.at(-1)).toMatch(/^… \(\d+ more diff lines not shown\)$/);
    expect(fs.readFileSync(path.join(t.ws, 'big.txt'), 'utf8')).toBe(content);
  });
});

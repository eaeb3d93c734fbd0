import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempWorkspace, text } from '../../test-support/tools';
import { listDirTool } from './list-dir';

describe('list_dir (P4.55)', () => {
  it('lists entries sorted, folders with a trailing /', async () => {
    const t = tempWorkspace();
    t.put('b.txt', '');
    t.put('a/x', '');
    t.put('.hidden', '');
    t.put('C.md', '');
    fs.symlinkSync(path.join(t.ws, 'a'), path.join(t.ws, 'alias'));
    expect(text(await listDirTool.execute({ path: '.' }, t.ctx()))).toBe('.hidden\nC.md\na/\nalias/\nb.txt');
    expect(text(await listDirTool.execute({ path: 'a' }, t.ctx()))).toBe('x');
  });

  it('empty folder, a file, a missing path', async () => {
    const t = tempWorkspace();
    fs.mkdirSync(path.join(t.ws, 'empty'));
    t.put('f', '');
    expect(text(await listDirTool.execute({ path: 'empty' }, t.ctx()))).toBe('(empty is empty)');
    expect(text(await listDirTool.execute({ path: 'f' }, t.ctx()))).toMatch(/^Error: f is a file/);
    expect(text(await listDirTool.execute({ path: 'nope' }, t.ctx()))).toMatch(/^Error: nope does not exist/);
  });

  it('P4.33 refuses `..`, absolute paths outside and a symlinked folder out', async () => {
    const t = tempWorkspace();
    fs.writeFileSync(path.join(t.outside, 'secret'), '');
    fs.symlinkSync(t.outside, path.join(t.ws, 'out'));
    for (const p of ['..', t.outside, 'out']) {
      const out = text(await listDirTool.execute({ path: p }, t.ctx()));
      expect(out).toMatch(/^Error/);
      expect(out).not.toContain('secret');
    }
  });
});

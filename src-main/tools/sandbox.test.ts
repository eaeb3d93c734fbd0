import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempWorkspace } from '../../test-support/tools';
import { isProtected, resolveInWorkspace } from './sandbox';

describe('resolveInWorkspace (P4.33)', () => {
  it('resolves relative and absolute paths inside the workspace to real paths', () => {
    const t = tempWorkspace();
    t.put('src/a.ts', 'x');
    expect(resolveInWorkspace(t.ws, 'src/a.ts')).toMatchObject({
      ok: true,
      path: path.join(t.ws, 'src/a.ts'),
      rel: 'src/a.ts',
    });
    expect(resolveInWorkspace(t.ws, path.join(t.ws, 'src/a.ts'))).toMatchObject({ ok: true, rel: 'src/a.ts' });
    expect(resolveInWorkspace(t.ws, '.')).toMatchObject({ ok: true, rel: '.' });
    expect(resolveInWorkspace(t.ws, 'src/../src/new/b.ts')).toMatchObject({ ok: true, rel: 'src/new/b.ts' });
  });

  it('P4.33 `..` out of the workspace → error', () => {
    const t = tempWorkspace();
    const r = resolveInWorkspace(t.ws, '../outside/x');
    expect(r).toEqual({ ok: false, error: '../outside/x is outside the workspace folder' });
  });

  it('P4.33 absolute path outside the workspace → error', () => {
    const t = tempWorkspace();
    expect(resolveInWorkspace(t.ws, '/etc/passwd')).toMatchObject({ ok: false });
    expect(resolveInWorkspace(t.ws, t.outside)).toMatchObject({ ok: false });
  });

  it('P4.33 symlink to a folder outside, for existing and not-yet-existing paths below it → error', () => {
    const t = tempWorkspace();
    fs.writeFileSync(path.join(t.outside, 'secret'), 's');
    fs.symlinkSync(t.outside, path.join(t.ws, 'out'));
    for (const p of ['out', 'out/secret', 'out/new/deeper.txt']) {
      const r = resolveInWorkspace(t.ws, p);
      expect(r).toMatchObject({ ok: false });
      expect(!r.ok && r.error).toContain('symbolic link');
    }
  });

  it('P4.33 symlinked file pointing outside, and a link to nowhere → error', () => {
    const t = tempWorkspace();
    fs.writeFileSync(path.join(t.outside, 'secret'), 's');
    fs.symlinkSync(path.join(t.outside, 'secret'), path.join(t.ws, 'link'));
    fs.symlinkSync(path.join(t.outside, 'missing'), path.join(t.ws, 'dangling'));
    expect(resolveInWorkspace(t.ws, 'link')).toMatchObject({ ok: false });
    expect(resolveInWorkspace(t.ws, 'dangling')).toMatchObject({ ok: false });
  });

  it('a symlink that stays inside resolves to its target; a workspace given through a link works', () => {
    const t = tempWorkspace();
    t.put('real/a.txt', 'a');
    fs.symlinkSync(path.join(t.ws, 'real'), path.join(t.ws, 'alias'));
    expect(resolveInWorkspace(t.ws, 'alias/a.txt')).toMatchObject({ ok: true, rel: 'real/a.txt' });
    const wsLink = path.join(t.outside, 'ws-link');
    fs.symlinkSync(t.ws, wsLink);
    expect(resolveInWorkspace(wsLink, path.join(wsLink, 'real/a.txt'))).toMatchObject({ ok: true, rel: 'real/a.txt' });
  });

  it('.maestro/ is protected, case-insensitively', () => {
    expect(isProtected('.maestro/policy.json')).toBe(true);
    expect(isProtected('.MAESTRO')).toBe(true);
    expect(isProtected('.maestrox/a')).toBe(false);
  });
});

// P4.33: a table of hostile paths, each given to read_file, write_file, edit_file, list_dir and grep. Refused ones
// answer `Error…` and leave both the workspace and the folder next to it untouched; the few that are legitimately
// inside are handled as normal paths.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshot, type TempWorkspace, tempWorkspace, text } from '../../test-support/tools';
import { editFileTool } from './edit-file';
import { grepTool } from './grep';
import { listDirTool } from './list-dir';
import { readFileTool } from './read-file';
import { resolveInWorkspace } from './sandbox';
import { writeFileTool } from './write-file';

const SECRET = 'TOP-SECRET';

/** A workspace with every kind of link out, and a secret next to it. */
function hostileWorkspace(): TempWorkspace {
  const t = tempWorkspace();
  fs.writeFileSync(path.join(t.outside, 'secret.txt'), SECRET);
  t.put('inside.txt', 'inside');
  fs.symlinkSync(t.outside, path.join(t.ws, 'out'));
  fs.symlinkSync(path.join(t.outside, 'secret.txt'), path.join(t.ws, 'secret-link.txt'));
  fs.symlinkSync('loop-a', path.join(t.ws, 'loop-b'));
  fs.symlinkSync('loop-b', path.join(t.ws, 'loop-a'));
  fs.symlinkSync('self', path.join(t.ws, 'self'));
  fs.symlinkSync(path.join(t.outside, 'nowhere.txt'), path.join(t.ws, 'dangling.txt'));
  fs.mkdirSync(path.join(t.ws, 'dir'));
  fs.symlinkSync(path.join(t.outside, 'secret.txt'), path.join(t.ws, 'dir', 'escape.txt'));
  return t;
}

/** Hostile paths: `(ws, outside) => path`, refused by every tool. */
const REFUSED: [string, (ws: string, outside: string) => string][] = [
  ['..', () => '..'],
  ['../..', () => '../..'],
  ['../outside/secret.txt', () => '../outside/secret.txt'],
  ['a/../../x', () => 'a/../../x'],
  ['dir/../../outside/secret.txt', () => 'dir/../../outside/secret.txt'],
  ['absolute outside', (_ws, outside) => path.join(outside, 'secret.txt')],
  ['/etc/passwd', () => '/etc/passwd'],
  ['/', () => '/'],
  ['~', () => '~'],
  ['~/.ssh/id_rsa', () => '~/.ssh/id_rsa'],
  ['C:\\Windows', () => 'C:\\Windows'],
  ['C:/x', () => 'C:/x'],
  ['C:x (drive-relative)', () => 'C:x'],
  ['\\\\server\\share', () => '\\\\server\\share'],
  ['//server/share', () => '//server/share'],
  ['\\\\?\\C:\\x', () => '\\\\?\\C:\\x'],
  ['\\\\.\\PhysicalDrive0', () => '\\\\.\\PhysicalDrive0'],
  ['..\\..\\x (backslash ..)', () => '..\\..\\x'],
  ['NUL byte', () => 'inside.txt\0../../outside/secret.txt'],
  ['NUL byte at the end', () => 'inside.txt\0'],
  ['symlink to a folder outside', () => 'out/secret.txt'],
  ['new file below a symlink out', () => 'out/new/file.txt'],
  ['symlink to a file outside', () => 'secret-link.txt'],
  ['file symlinked out under a folder', () => 'dir/escape.txt'],
  ['symlink loop', () => 'loop-a'],
  ['self loop, below it', () => 'self/x.txt'],
  ['dangling symlink', () => 'dangling.txt'],
  ['very long path', () => `${'a/'.repeat(3000)}x.txt`],
  ['very long name', () => `${'n'.repeat(300)}.txt`],
];

const refused = async (t: TempWorkspace, given: string) => {
  const ctx = t.ctx();
  return [
    text(await readFileTool.execute({ path: given }, ctx)),
    text(await writeFileTool.execute({ path: given, content: 'pwned' }, ctx)),
    text(await editFileTool.execute({ path: given, old_string: SECRET, new_string: 'pwned' }, ctx)),
    text(await editFileTool.execute({ path: given, old_string: 'inside', new_string: 'pwned' }, ctx)),
    text(await listDirTool.execute({ path: given }, ctx)),
    text(await grepTool.execute({ pattern: 'SECRET|inside', path: given }, ctx)),
  ];
};

describe('the sandbox against hostile paths (P4.33)', () => {
  it(`has at least 20 hostile paths (${REFUSED.length})`, () => {
    expect(REFUSED.length).toBeGreaterThanOrEqual(20);
  });

  for (const [label, make] of REFUSED) {
    it(`refuses ${label}: Error, nothing read, nothing touched`, async () => {
      const t = hostileWorkspace();
      const given = make(t.ws, t.outside);
      expect(resolveInWorkspace(t.ws, given)).toMatchObject({ ok: false });
      const before = { ws: snapshot(t.ws), outside: snapshot(t.outside) };
      for (const out of await refused(t, given)) {
        expect(out).toMatch(/^Error/);
        expect(out).not.toContain(SECRET);
        expect(out.length).toBeLessThan(600);
      }
      expect({ ws: snapshot(t.ws), outside: snapshot(t.outside) }).toEqual(before);
    });
  }

  it('paths that only look hostile but name something inside are handled as normal paths', async () => {
    const t = hostileWorkspace();
    const ctx = t.ctx();
    const write = async (p: string) => text(await writeFileTool.execute({ path: p, content: 'ok\n' }, ctx));
    expect(await write('%2e%2e/x')).toMatch(/^Created %2e%2e\/x /);
    expect(fs.readFileSync(path.join(t.ws, '%2e%2e/x'), 'utf8')).toBe('ok\n');
    expect(await write('..foo')).toMatch(/^Created \.\.foo /);
    expect(await write('a/../b.txt')).toMatch(/^Created b\.txt /);
    expect(await write('out/../c.txt')).toMatch(/^Created c\.txt /); // resolved lexically: stays inside
    expect(await write(path.join(t.ws, 'abs.txt'))).toMatch(/^Created abs\.txt /);
    expect(await write('~backup.txt')).toMatch(/^Created ~backup\.txt /);
    expect(text(await readFileTool.execute({ path: '%2e%2e/x' }, ctx))).toBe('     1\tok');
    expect(text(await readFileTool.execute({ path: './inside.txt' }, ctx))).toBe('     1\tinside');
    expect(fs.readFileSync(path.join(t.outside, 'secret.txt'), 'utf8')).toBe(SECRET);
    expect(fs.readdirSync(t.outside)).toEqual(['secret.txt']);
  });

  it('`.` and the empty string name the workspace folder: not a file to read or write', async () => {
    const t = hostileWorkspace();
    const before = snapshot(t.ws);
    for (const given of ['.', '', '  ', './']) {
      expect(text(await readFileTool.execute({ path: given }, t.ctx()))).toMatch(/^Error: .*is a folder/);
      expect(text(await writeFileTool.execute({ path: given, content: 'x' }, t.ctx()))).toMatch(
        /^Error: .*(workspace folder itself|is a folder)/,
      );
      expect(text(await editFileTool.execute({ path: given, old_string: 'a', new_string: 'b' }, t.ctx()))).toMatch(
        /^Error/,
      );
    }
    expect(snapshot(t.ws)).toEqual(before);
  });
});

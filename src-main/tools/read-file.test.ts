import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempWorkspace, text } from '../../test-support/tools';
import { READ_MAX_OUTPUT_CHARS, readFileTool } from './read-file';

const read = async (t: ReturnType<typeof tempWorkspace>, args: Parameters<typeof readFileTool.execute>[0]) =>
  text(await readFileTool.execute(args, t.ctx()));

describe('read_file (P4.55)', () => {
  it('numbers lines like cat -n', async () => {
    const t = tempWorkspace();
    t.put('a.txt', 'one\ntwo\r\nthree\n');
    expect(await read(t, { path: 'a.txt' })).toBe('     1\tone\n     2\ttwo\n     3\tthree');
  });

  it('offset (1-based) and limit select lines and say how to read on', async () => {
    const t = tempWorkspace();
    t.put('a.txt', Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n'));
    expect(await read(t, { path: 'a.txt', offset: 3, limit: 2 })).toBe(
      '     3\tline 3\n     4\tline 4\n… showing lines 3–4 of 10; call read_file with offset 5 to read on',
    );
    expect(await read(t, { path: 'a.txt', offset: 9 })).toBe('     9\tline 9\n    10\tline 10');
    expect(await read(t, { path: 'a.txt', offset: 11 })).toMatch(
      /^Error: offset 11 is past the end of a.txt, which has 10 lines/,
    );
  });

  it('caps the output with a clear note', async () => {
    const t = tempWorkspace();
    t.put('big.txt', Array.from({ length: 1500 }, () => 'x'.repeat(100)).join('\n'));
    const out = await read(t, { path: 'big.txt' });
    expect(out.length).toBeLessThanOrEqual(READ_MAX_OUTPUT_CHARS + 200);
    expect(out).toMatch(
      /… showing lines 1–\d+ of 1500 \(output capped at 60000 characters\); call read_file with offset \d+/,
    );
  });

  it('refuses binary files, folders and missing files with Error', async () => {
    const t = tempWorkspace();
    t.put('bin.dat', new Uint8Array([0x89, 0x50, 0x00, 0x01]));
    t.put('dir/x', 'x');
    expect(await read(t, { path: 'bin.dat' })).toMatch(/^Error: bin.dat is a binary file/);
    expect(await read(t, { path: 'dir' })).toMatch(/^Error: dir is a folder/);
    expect(await read(t, { path: 'nope' })).toMatch(/^Error: nope does not exist/);
  });

  it('says when the file is empty', async () => {
    const t = tempWorkspace();
    t.put('e.txt', '');
    expect(await read(t, { path: 'e.txt' })).toBe('(e.txt is empty)');
  });

  it('P4.33 refuses `..`, absolute paths outside, and symlinks out', async () => {
    const t = tempWorkspace();
    fs.writeFileSync(path.join(t.outside, 'secret'), 'SECRET');
    fs.symlinkSync(path.join(t.outside, 'secret'), path.join(t.ws, 'link'));
    fs.symlinkSync(t.outside, path.join(t.ws, 'dirlink'));
    for (const p of ['../outside/secret', path.join(t.outside, 'secret'), 'link', 'dirlink/secret']) {
      const out = await read(t, { path: p });
      expect(out).toMatch(/^Error/);
      expect(out).not.toContain('SECRET');
    }
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempWorkspace, text } from '../../test-support/tools';
import { GLOB_MAX_RESULTS, globTool } from './glob';

const run = async (t: ReturnType<typeof tempWorkspace>, pattern: string) =>
  text(await globTool.execute({ pattern }, t.ctx()));

describe('glob (P4.55)', () => {
  it('matches files by pattern, sorted, skipping .git and node_modules unless named', async () => {
    const t = tempWorkspace();
    for (const f of ['src/b.ts', 'src/a.ts', 'src/x/c.tsx', 'src/d.js', 'top.ts', '.git/h.ts', 'node_modules/m/i.ts'])
      t.put(f, '');
    expect(await run(t, '**/*.ts')).toBe('src/a.ts\nsrc/b.ts\ntop.ts');
    expect(await run(t, 'src/**/*.{ts,tsx}')).toBe('src/a.ts\nsrc/b.ts\nsrc/x/c.tsx');
    expect(await run(t, './src/?.js')).toBe('src/d.js');
    expect(await run(t, 'node_modules/**/*.ts')).toBe('node_modules/m/i.ts');
    expect(await run(t, '*.md')).toBe('No files match *.md');
    expect(await run(t, 'missing/**')).toBe('No files match missing/**');
  });

  it('caps the results with a note', async () => {
    const t = tempWorkspace();
    for (let i = 0; i < GLOB_MAX_RESULTS + 5; i++) t.put(`f/${String(i).padStart(4, '0')}.txt`, '');
    const out = (await run(t, 'f/*.txt')).split('\n');
    expect(out).toHaveLength(GLOB_MAX_RESULTS + 1);
    expect(out.at(-1)).toBe('… 5 more files match; narrow the pattern');
  });

  it('P4.33 refuses absolute and `..` patterns and never follows a link out', async () => {
    const t = tempWorkspace();
    fs.writeFileSync(path.join(t.outside, 'secret.ts'), '');
    fs.symlinkSync(t.outside, path.join(t.ws, 'out'));
    fs.symlinkSync(path.join(t.outside, 'secret.ts'), path.join(t.ws, 'file-link.ts'));
    expect(await run(t, '/etc/*')).toMatch(/^Error: the pattern \/etc\/\* is absolute/);
    expect(await run(t, '../outside/*')).toMatch(/^Error/);
    expect(await run(t, 'out/*')).toMatch(/^Error: out leads outside/);
    expect(await run(t, '**/*.ts')).toBe('No files match **/*.ts');
  });
});

describe('glob and .gitignore', () => {
  it('leaves out what .gitignore files ignore (root and nested, negation, folders only); a named folder is walked whole', async () => {
    const t = tempWorkspace();
    t.put('.gitignore', '# build output\ndist/\n*.log\n!keep.log\n/root-only.txt\n');
    t.put('pkg/.gitignore', '/gen\n*.tmp\n');
    for (const f of [
      'src/a.ts',
      'src/debug.log',
      'src/keep.log',
      'dist/out.js',
      'dist/x/y.js',
      'root-only.txt',
      'pkg/root-only.txt',
      'pkg/gen/g.ts',
      'pkg/src/gen/g.ts',
      'pkg/a.tmp',
      'b.tmp',
      'logs.log/inner.txt',
    ])
      t.put(f, '');
    expect(await run(t, '**')).toBe(
      [
        '.gitignore',
        'b.tmp',
        'pkg/.gitignore',
        'pkg/root-only.txt',
        'pkg/src/gen/g.ts',
        'src/a.ts',
        'src/keep.log',
      ].join('\n'),
    );
    expect(await run(t, 'dist/**/*.js')).toBe('dist/out.js\ndist/x/y.js');
    expect(await run(t, 'dist/x/*')).toBe('dist/x/y.js');
    expect(await run(t, 'pkg/gen/*')).toBe('pkg/gen/g.ts');
    expect(await run(t, 'src/*')).toBe('src/a.ts\nsrc/keep.log');
  });
});

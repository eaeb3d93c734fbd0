import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempWorkspace, text } from '../../test-support/tools';
import { GREP_MAX_MATCHES, grepTool } from './grep';

const run = async (t: ReturnType<typeof tempWorkspace>, args: Parameters<typeof grepTool.execute>[0]) =>
  text(await grepTool.execute(args, t.ctx()));

describe('grep (P4.55)', () => {
  it('prints file:line:text over the workspace, skipping binary files, .git and node_modules', async () => {
    const t = tempWorkspace();
    t.put('src/a.ts', 'const x = 1;\nfunction foo() {}\n');
    t.put('src/b.js', 'foo();\n');
    t.put('bin.dat', new Uint8Array([102, 111, 111, 0]));
    t.put('.git/config', 'foo');
    t.put('node_modules/m/index.js', 'foo');
    expect(await run(t, { pattern: 'foo\\(' })).toBe('src/a.ts:2:function foo() {}\nsrc/b.js:1:foo();');
    expect(await run(t, { pattern: 'foo', glob: '*.js' })).toBe('src/b.js:1:foo();');
    expect(await run(t, { pattern: 'foo', glob: 'src/**/*.ts' })).toBe('src/a.ts:2:function foo() {}');
    expect(await run(t, { pattern: 'foo', path: 'src/b.js' })).toBe('src/b.js:1:foo();');
    expect(await run(t, { pattern: 'foo', path: 'node_modules' })).toBe('node_modules/m/index.js:1:foo');
    expect(await run(t, { pattern: 'nothing' })).toBe('No matches');
  });

  it('a pattern that can backtrack exponentially is refused at once, before any line is read', async () => {
    const t = tempWorkspace();
    t.put('trap.txt', `${'a'.repeat(40)}!\n`);
    const started = Date.now();
    expect(await run(t, { pattern: '^(a+)+$' })).toMatch(/^Error: pattern has a nested quantifier/);
    expect(await run(t, { pattern: '(\\w+\\s*)*x' })).toMatch(/^Error: pattern has a nested quantifier/);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await run(t, { pattern: 'a+!' })).toBe(`trap.txt:1:${'a'.repeat(40)}!`);
  });

  it('an invalid expression is an Error; results are capped with a note', async () => {
    const t = tempWorkspace();
    t.put('many.txt', 'hit\n'.repeat(GREP_MAX_MATCHES + 3));
    expect(await run(t, { pattern: '(' })).toMatch(/^Error: pattern is not a valid regular expression/);
    const out = (await run(t, { pattern: 'hit' })).split('\n');
    expect(out).toHaveLength(GREP_MAX_MATCHES + 1);
    expect(out.at(-1)).toBe('… 3 more matching lines not shown; narrow the pattern, path or glob');
  });

  it('P4.33 refuses paths out and does not search through links out', async () => {
    const t = tempWorkspace();
    fs.writeFileSync(path.join(t.outside, 'secret.txt'), 'SECRET');
    fs.symlinkSync(t.outside, path.join(t.ws, 'out'));
    fs.symlinkSync(path.join(t.outside, 'secret.txt'), path.join(t.ws, 'link.txt'));
    expect(await run(t, { pattern: 'SECRET', path: '..' })).toMatch(/^Error/);
    expect(await run(t, { pattern: 'SECRET', path: t.outside })).toMatch(/^Error/);
    expect(await run(t, { pattern: 'SECRET', path: 'out' })).toMatch(/^Error/);
    expect(await run(t, { pattern: 'SECRET' })).toBe('No matches');
  });
});

describe('grep and .gitignore', () => {
  it('skips ignored files; a path or a glob whose folders name an ignored folder searches it', async () => {
    const t = tempWorkspace();
    t.put('.gitignore', 'dist/\n*.log\n');
    t.put('src/a.ts', 'needle\n');
    t.put('src/b.log', 'needle\n');
    t.put('dist/c.js', 'needle\n');
    t.put('dist/sub/.gitignore', '*.js\n');
    t.put('dist/sub/d.js', 'needle\n');
    expect(await run(t, { pattern: 'needle' })).toBe('src/a.ts:1:needle');
    expect(await run(t, { pattern: 'needle', path: 'dist' })).toBe('dist/c.js:1:needle\ndist/sub/d.js:1:needle');
    expect(await run(t, { pattern: 'needle', glob: 'dist/**/*.js' })).toBe(
      'dist/c.js:1:needle\ndist/sub/d.js:1:needle',
    );
    expect(await run(t, { pattern: 'needle', path: 'src/b.log' })).toBe('src/b.log:1:needle');
    expect(await run(t, { pattern: 'needle', glob: 'missing/**' })).toBe('No matches');
  });
});

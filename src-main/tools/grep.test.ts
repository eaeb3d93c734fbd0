import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempWorkspace, text } from '../../test-support/tools';
import { GREP_MAX_LINE_CHARS, GREP_MAX_MATCHES, grepTool } from './grep';

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

  it('the catastrophic patterns ^(a+)+$, (a|a)*b and (x+x+)+y each answer in < 100 ms on a 100 kB line (RE2)', async () => {
    const t = tempWorkspace();
    t.put('a.txt', `${'a'.repeat(100_000)}!\n`);
    t.put('x.txt', `${'x'.repeat(100_000)}\n`);
    for (const [pattern, expected] of [
      ['^(a+)+$', 'No matches'],
      ['(a|a)*b', 'No matches'],
      ['(x+x+)+y', 'No matches'],
      [
        '^(a+)+!$',
        `a.txt:1:${'a'.repeat(GREP_MAX_LINE_CHARS)}… (${100_001 - GREP_MAX_LINE_CHARS} more characters in this line)`,
      ],
    ] as const) {
      const started = performance.now();
      expect(await run(t, { pattern })).toBe(expected);
      expect(performance.now() - started, pattern).toBeLessThan(100);
    }
  });

  it('a lookahead or a backreference is refused, saying why and what to write instead', async () => {
    const t = tempWorkspace();
    t.put('a.txt', 'foobar\nabab\n');
    expect(await run(t, { pattern: 'foo(?=bar)' })).toMatch(
      /^Error: pattern uses a lookahead \(\(\?= or \(\?!\), which the linear-time engine \(RE2\) cannot run; match the text/,
    );
    expect(await run(t, { pattern: 'foo(?!baz)' })).toMatch(/^Error: pattern uses a lookahead/);
    expect(await run(t, { pattern: '(ab)\\1' })).toMatch(
      /^Error: pattern uses a backreference .*write the repeated text out/,
    );
    expect(await run(t, { pattern: '(?<x>ab)\\k<x>' })).toMatch(/^Error: pattern uses a backreference/);
    // What RE2 does run: lookbehinds, named groups, JavaScript's \u escapes.
    expect(await run(t, { pattern: '(?<=foo)bar' })).toBe('a.txt:1:foobar');
    expect(await run(t, { pattern: '(?<x>ab){2}' })).toBe('a.txt:2:abab');
    expect(await run(t, { pattern: '\\u0066oo' })).toBe('a.txt:1:foobar');
  });

  it('^ and $ hold per line, with \\r\\n line ends too', async () => {
    const t = tempWorkspace();
    t.put('crlf.txt', 'one\r\ntwo\r\n');
    t.put('lf.txt', 'one\ntwo\n');
    expect(await run(t, { pattern: '^two$' })).toBe('crlf.txt:2:two\nlf.txt:2:two');
    expect(await run(t, { pattern: 'one.two' })).toBe('No matches');
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

import { describe, expect, it } from 'vitest';
import { globToRegExp, literalBase, skippedFolders } from './glob-match';

const m = (pattern: string, p: string) => globToRegExp(pattern).test(p);

describe('globToRegExp', () => {
  it('* and ? stay within one name', () => {
    expect(m('*.ts', 'a.ts')).toBe(true);
    expect(m('*.ts', 'src/a.ts')).toBe(false);
    expect(m('a?.ts', 'ab.ts')).toBe(true);
    expect(m('a?.ts', 'a/.ts')).toBe(false);
    expect(m('*', '.env')).toBe(true);
  });

  it('** spans folders, including none', () => {
    expect(m('**/*.ts', 'a.ts')).toBe(true);
    expect(m('**/*.ts', 'src/deep/a.ts')).toBe(true);
    expect(m('src/**/*.ts', 'src/a.ts')).toBe(true);
    expect(m('src/**/*.ts', 'src/x/y/a.ts')).toBe(true);
    expect(m('src/**/*.ts', 'lib/a.ts')).toBe(false);
    expect(m('src/**', 'src/x/y')).toBe(true);
    expect(m('**', 'anything/at/all')).toBe(true);
    expect(m('**', '../outside.txt')).toBe(true);
    expect(m('*/x', '../x')).toBe(true);
    expect(m('src/**', 'src')).toBe(false);
  });

  it('{a,b} alternatives (nested) and [classes]', () => {
    expect(m('*.{ts,tsx}', 'a.tsx')).toBe(true);
    expect(m('*.{ts,tsx}', 'a.js')).toBe(false);
    expect(m('{src,lib/{x,y}}/*.js', 'lib/y/a.js')).toBe(true);
    expect(m('[ab].txt', 'b.txt')).toBe(true);
    expect(m('[!ab].txt', 'b.txt')).toBe(false);
    expect(m('[!ab].txt', 'c.txt')).toBe(true);
  });

  it('regex characters, parentheses, | and a leading ! are literal; \\ escapes; case counts', () => {
    expect(m('a+b(1).txt', 'a+b(1).txt')).toBe(true);
    expect(m('a.txt', 'abtxt')).toBe(false);
    expect(m('(x|y)', '(x|y)')).toBe(true);
    expect(m('(x|y)', 'x')).toBe(false);
    expect(m('@(a|b)', '@(a|b)')).toBe(true);
    expect(m('*(1)*', 'a(1)b')).toBe(true);
    expect(m('!a', '!a')).toBe(true);
    expect(m('!a', 'b')).toBe(false);
    expect(m('a\\*b', 'a*b')).toBe(true);
    expect(m('a\\*b', 'axb')).toBe(false);
    expect(m('a\\(b', 'a(b')).toBe(true);
    expect(m('*.ts', 'a.TS')).toBe(false);
    expect(m('**/*.ts', '.hidden/a.ts')).toBe(true);
  });

  it('literalBase and skipped folders', () => {
    expect(literalBase('src/lib/**/*.ts')).toBe('src/lib');
    expect(literalBase('*.ts')).toBe('.');
    expect(literalBase('{a,b}/x')).toBe('.');
    expect([...skippedFolders('**/*.ts')]).toEqual(['.git', 'node_modules']);
    expect([...skippedFolders('node_modules/**/package.json')]).toEqual(['.git']);
  });
});

describe('globToRegExp on RE2 (linear time)', () => {
  it('a name that is only * is never empty at the end, as with picomatch', () => {
    expect(m('*', '')).toBe(false);
    expect(m('x/*', 'x/')).toBe(false);
    expect(m('x/*', 'x/a')).toBe(true);
    expect(m('x/*', 'x/a/')).toBe(true);
    expect(m('**/*', 'a')).toBe(true);
    expect(m('*/**/*', 'a')).toBe(false);
    expect(m('*/**/*', 'a/b')).toBe(true);
  });

  it('many wildcards against a 100 kB path answer in < 100 ms', () => {
    const long = `${'a/'.repeat(50_000)}b`;
    const started = performance.now();
    expect(m('**/a/**/a/**/a/**/a/**/c', long)).toBe(false);
    expect(m('*a*a*a*a*a*a*c', 'a'.repeat(100_000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(100);
  });
});

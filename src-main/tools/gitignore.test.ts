import { describe, expect, it } from 'vitest';
import { addLevel, type IgnoreLevel, isIgnored } from './gitignore';

/** Whether `rel` is ignored by one .gitignore `text` in folder `base` ('' or 'dir/'). */
const ign = (text: string, rel: string, isDir = false, base = '') => isIgnored(addLevel(null, base, text), rel, isDir);

describe('gitignore rules', () => {
  it('skips blank lines and comments; keeps escaped # and !; trims unescaped trailing spaces', () => {
    expect(addLevel(null, '', '\n# comment\n   \n\r\n')).toBeNull();
    expect(ign('\\#notes', '#notes')).toBe(true);
    expect(ign('\\!bang', '!bang')).toBe(true);
    expect(ign('a.txt   ', 'a.txt')).toBe(true);
    expect(ign('a\\ ', 'a ')).toBe(true);
    expect(ign('a\\ ', 'a')).toBe(false);
    expect(ign('a.txt\r\n', 'a.txt')).toBe(true);
    expect(ign('/', 'a')).toBe(false);
  });

  it('a name without / matches at any depth; * and ? stay within one name', () => {
    expect(ign('*.log', 'debug.log')).toBe(true);
    expect(ign('*.log', 'a/b/debug.log')).toBe(true);
    expect(ign('*.log', 'a/b/debug.log.txt')).toBe(false);
    expect(ign('build', 'x/build', true)).toBe(true);
    expect(ign('a?c', 'abc')).toBe(true);
    expect(ign('a?c', 'ac')).toBe(false);
    expect(ign('[ab].txt', 'b.txt')).toBe(true);
    expect(ign('[!ab].txt', 'b.txt')).toBe(false);
    expect(ign('[!ab].txt', 'c.txt')).toBe(true);
    expect(ign('{a,b}', '{a,b}')).toBe(true); // no braces in gitignore
  });

  it('a leading or middle / anchors to the .gitignore folder; a trailing / matches folders only', () => {
    expect(ign('/build', 'build', true)).toBe(true);
    expect(ign('/build', 'src/build', true)).toBe(false);
    expect(ign('doc/frotz', 'doc/frotz')).toBe(true);
    expect(ign('doc/frotz', 'a/doc/frotz')).toBe(false);
    expect(ign('dist/', 'dist', true)).toBe(true);
    expect(ign('dist/', 'dist', false)).toBe(false);
    expect(ign('dist/', 'a/dist', true)).toBe(true);
    expect(ign('src/*.ts', 'src/a.ts')).toBe(true);
    expect(ign('src/*.ts', 'src/x/a.ts')).toBe(false);
  });

  it('** : leading (any folders), trailing (everything inside), middle (zero or more folders)', () => {
    expect(ign('**/foo', 'foo', true)).toBe(true);
    expect(ign('**/foo', 'a/b/foo')).toBe(true);
    expect(ign('**/foo/bar', 'x/foo/bar')).toBe(true);
    expect(ign('abc/**', 'abc/x')).toBe(true);
    expect(ign('abc/**', 'abc/x/y')).toBe(true);
    expect(ign('abc/**', 'abc', true)).toBe(false);
    expect(ign('a/**/b', 'a/b')).toBe(true);
    expect(ign('a/**/b', 'a/x/y/b')).toBe(true);
    expect(ign('a/**/b', 'c/a/x/b')).toBe(false);
    expect(ign('a**b', 'axxb')).toBe(true);
  });

  it('! negates; the last matching line wins', () => {
    expect(ign('*.log\n!keep.log', 'keep.log')).toBe(false);
    expect(ign('*.log\n!keep.log', 'other.log')).toBe(true);
    expect(ign('!keep.log\n*.log', 'keep.log')).toBe(true);
  });

  it('a nested .gitignore applies below its folder, relative to it, and takes precedence over the one above', () => {
    let level: IgnoreLevel | null = addLevel(null, '', '*.gen\n/top-only\n');
    level = addLevel(level, 'pkg/', '/out\n!keep.gen\n');
    const at = (rel: string, isDir = false) => isIgnored(level, rel, isDir);
    expect(at('pkg/out', true)).toBe(true);
    expect(at('pkg/sub/out', true)).toBe(false);
    expect(at('pkg/a.gen')).toBe(true);
    expect(at('pkg/keep.gen')).toBe(false);
    expect(at('pkg/top-only')).toBe(false);
    expect(addLevel(level, 'x/', '# only a comment\n')).toBe(level);
  });
});

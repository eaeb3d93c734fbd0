// A small glob matcher over `/`-separated relative paths: `**` (any number of folders), `*` and `?` (within one path
// segment), `[abc]` / `[!abc]` character classes and `{a,b}` alternatives (nestable). Dot files are matched like
// any other name.

const MAGIC = /[*?[{]/;
const escapeRe = (c: string) => c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * A RegExp that matches exactly the relative paths the pattern names. `braces: false` reads `{`, `}` and `,` as
 * themselves (gitignore patterns have no alternatives).
 */
export function globToRegExp(pattern: string, { braces: alternatives = true } = {}): RegExp {
  let re = '';
  let braces = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        const atStart = i === 0 || pattern[i - 1] === '/';
        let j = i;
        while (pattern[j] === '*') j++;
        if (atStart && pattern[j] === '/') {
          re += '(?:[^/]*/)*'; // `**/`: zero or more folders
          i = j;
          continue;
        }
        if (atStart && j === pattern.length) {
          re += '.*'; // trailing `**`: everything below
          i = j - 1;
          continue;
        }
        i = j - 1; // `a**b` is `a*b`
      }
      re += '[^/]*';
    } else if (c === '?') {
      re += '[^/]';
    } else if (c === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close === -1) {
        re += '\\[';
        continue;
      }
      let body = pattern.slice(i + 1, close);
      let negate = false;
      if (body.startsWith('!') || body.startsWith('^')) {
        negate = true;
        body = body.slice(1);
      }
      re += `[${negate ? '^/' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
      i = close;
    } else if (c === '{' && alternatives) {
      braces++;
      re += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      re += ')';
    } else if (c === ',' && braces > 0) {
      re += '|';
    } else if (c === '\\' && i + 1 < pattern.length) {
      i++;
      re += escapeRe(pattern[i] as string);
    } else {
      re += escapeRe(c);
    }
  }
  re += ')'.repeat(braces); // an unclosed `{` still yields a valid expression
  return new RegExp(`^${re}$`);
}

/** The pattern's leading folders without wildcards: the walk can start there. `src/**\/*.ts` → `src`. */
export function literalBase(pattern: string): string {
  const segments = pattern.split('/');
  const base: string[] = [];
  for (const s of segments.slice(0, -1)) {
    if (MAGIC.test(s) || s.includes('\\')) break;
    base.push(s);
  }
  return base.length === 0 ? '.' : base.join('/');
}

/** Folders skipped by walks unless the pattern or path names them. */
export const SKIPPED_FOLDERS = ['.git', 'node_modules'] as const;

export function skippedFolders(...named: (string | undefined)[]): Set<string> {
  return new Set(SKIPPED_FOLDERS.filter((f) => !named.some((n) => n?.includes(f))));
}

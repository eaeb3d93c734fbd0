// The `.gitignore` matcher of the walks of glob and grep: blank lines and `#` comments skipped, trailing spaces
// dropped (unless escaped), `!` negation, a trailing `/` for folders only, a `/` at the start or in the middle anchors
// the pattern to the `.gitignore`'s own folder (otherwise it matches a name at any depth below it); the patterns
// themselves (`*`, `?`, `[a-z]` / `[!a-z]`, `**`, `\` escapes) are read by glob-match.ts without braces.
// Deeper `.gitignore` files take precedence over higher ones; within a file the last matching line wins.
// Not read: `.git/info/exclude` and the user's global excludes file.
//
// Not the `ignore` package: its 7.0.5 reads a negated class `[!a]` as `[a]`, the opposite of git (fixed upstream in
// kaelzhang/node-ignore#159, released after 7.0.5).

import { globToRegExp } from './glob-match';

export interface IgnoreRule {
  negate: boolean;
  /** A trailing `/`: the rule matches folders only. */
  dirOnly: boolean;
  /** Contains a `/` (after stripping a trailing one): matched against the path from the `.gitignore`'s folder. */
  anchored: boolean;
  test: (s: string) => boolean;
}

/** The rules of one `.gitignore`, for the subtree of its folder; `parent` holds the rules of the folders above. */
export interface IgnoreLevel {
  readonly parent: IgnoreLevel | null;
  /** The `.gitignore`'s folder relative to the workspace, with a trailing `/` ('' for the workspace itself). */
  readonly base: string;
  readonly rules: readonly IgnoreRule[];
}

const MAGIC = /[*?[\\]/;

/** The fastest test for a pattern: string equality, a suffix (`*.log`), or a RegExp. */
function compile(p: string): (s: string) => boolean {
  if (!MAGIC.test(p)) return (s) => s === p;
  if (p.startsWith('*') && !MAGIC.test(p.slice(1)) && !p.includes('/')) {
    const suffix = p.slice(1);
    return (s) => s.endsWith(suffix);
  }
  const re = globToRegExp(p, { braces: false });
  return (s) => re.test(s);
}

/** Parses one line; null for blank lines, comments and patterns that match nothing. */
export function parseRule(line: string): IgnoreRule | null {
  let p = line.endsWith('\r') ? line.slice(0, -1) : line;
  // Trailing spaces are dropped unless escaped with a backslash.
  let end = p.length;
  while (end > 0 && p[end - 1] === ' ' && p[end - 2] !== '\\') end--;
  p = p.slice(0, end);
  if (p === '' || p.startsWith('#')) return null;
  let negate = false;
  if (p.startsWith('!')) {
    negate = true;
    p = p.slice(1);
  } else if (p.startsWith('\\!') || p.startsWith('\\#')) {
    p = p.slice(1);
  }
  let dirOnly = false;
  if (p.endsWith('/') && !p.endsWith('\\/')) {
    dirOnly = true;
    p = p.replace(/\/+$/, '');
  }
  const anchored = p.includes('/');
  p = p.replace(/^\/+/, '');
  if (p === '') return null;
  return { negate, dirOnly, anchored, test: compile(p) };
}

export function parseGitignore(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const line of text.split('\n')) {
    const rule = parseRule(line);
    if (rule) rules.push(rule);
  }
  return rules;
}

/** A level for the rules of the `.gitignore` in folder `base` (`''` or `dir/`); the parent when it has none. */
export function addLevel(parent: IgnoreLevel | null, base: string, text: string): IgnoreLevel | null {
  const rules = parseGitignore(text);
  return rules.length === 0 ? parent : { parent, base, rules };
}

/**
 * Whether the entry `rel` (workspace-relative, `/`-separated, no trailing `/`; `name` its last component) is ignored.
 * The caller checks folders before entering them, so a file below an ignored folder is never asked about.
 */
export function isIgnored(level: IgnoreLevel | null, rel: string, name: string, isDir: boolean): boolean {
  for (let l = level; l !== null; l = l.parent) {
    const rules = l.rules;
    let sub: string | undefined;
    for (let i = rules.length - 1; i >= 0; i--) {
      const r = rules[i] as IgnoreRule;
      if (r.dirOnly && !isDir) continue;
      if (r.anchored) {
        sub ??= rel.slice(l.base.length);
        if (!r.test(sub)) continue;
      } else if (!r.test(name)) continue;
      return !r.negate;
    }
  }
  return false;
}

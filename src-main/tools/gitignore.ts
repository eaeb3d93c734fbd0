// The `.gitignore` matcher of the walks of glob and grep, on the `ignore` package (git's own rules: negation, folder
// rules, anchoring, `**`, escapes). Each `.gitignore` is one level for its folder's subtree; deeper levels take
// precedence over higher ones, and within a file the last matching line wins. Not read: `.git/info/exclude` and the
// user's global excludes file.
import ignore, { type Ignore } from 'ignore';

/** The rules of one `.gitignore`, for the subtree of its folder; `parent` holds the rules of the folders above. */
export interface IgnoreLevel {
  readonly parent: IgnoreLevel | null;
  /** The `.gitignore`'s folder relative to the workspace, with a trailing `/` ('' for the workspace itself). */
  readonly base: string;
  readonly rules: Ignore;
}

const hasRules = (text: string) =>
  text.split('\n').some((line) => {
    const trimmed = line.trim();
    return trimmed !== '' && !trimmed.startsWith('#') && trimmed !== '/';
  });

/** A level for the rules of the `.gitignore` in folder `base` (`''` or `dir/`); the parent when it has none. */
export function addLevel(parent: IgnoreLevel | null, base: string, text: string): IgnoreLevel | null {
  return hasRules(text) ? { parent, base, rules: ignore({ ignorecase: false }).add(text) } : parent;
}

/**
 * Whether the entry `rel` (workspace-relative, `/`-separated, no trailing `/`) is ignored. The caller checks folders
 * before entering them, so a file below an ignored folder is never asked about.
 */
export function isIgnored(level: IgnoreLevel | null, rel: string, isDir: boolean): boolean {
  for (let l = level; l !== null; l = l.parent) {
    const verdict = l.rules.test(`${rel.slice(l.base.length)}${isDir ? '/' : ''}`);
    if (verdict.ignored) return true;
    if (verdict.unignored) return false;
  }
  return false;
}

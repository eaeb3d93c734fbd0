// The one reading of glob patterns (glob, grep's `glob`, the auto-prompter's rules) over `/`-separated relative
// paths: picomatch with `**` (any number of folders), `*` and `?` (within one name), `[abc]` / `[!abc]` classes and
// `{a,b}` alternatives; dot files match like any other name, case counts, `\` escapes. Parentheses, `|` and a
// leading `!` are file-name characters here, not picomatch's regex groups, extglobs or negation. Wildcards match `.`
// and `..` too: the auto-prompter tests its rules on the paths a call names, and `**` matches one outside (`../x`).
import picomatch from 'picomatch/posix';

const OPTIONS: picomatch.PicomatchOptions = { dot: true, posix: true, nonegate: true, noextglob: true };
const MAGIC = /[*?[{]/;
/** `(`, `)` and `|` escaped (an already escaped character is left alone), so picomatch reads them as themselves. */
const literalGroups = (pattern: string) => pattern.replace(/\\.|[()|]/g, (c) => (c.length === 2 ? c : `\\${c}`));
/** A trailing `/**` names what is inside the folder, not the folder itself (picomatch's `a/**` also matches `a`). */
const insideOnly = (pattern: string) => (pattern.endsWith('/**') ? `${pattern}/*` : pattern);
/** The lookaheads by which picomatch's wildcards refuse `.` and `..` names. */
const { NO_DOTS, NO_DOTS_SLASH } = picomatch.constants.globChars(false);

/**
 * A RegExp that matches exactly the relative paths the pattern names. `braces: false` reads `{`, `}` and `,` as
 * themselves (gitignore patterns have no alternatives).
 */
export function globToRegExp(pattern: string, { braces = true } = {}): RegExp {
  const re = picomatch.makeRe(insideOnly(literalGroups(pattern)), { ...OPTIONS, nobrace: !braces });
  return new RegExp(re.source.replaceAll(NO_DOTS, '').replaceAll(NO_DOTS_SLASH, ''));
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

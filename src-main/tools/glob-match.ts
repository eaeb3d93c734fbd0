// The one reading of glob patterns (glob, grep's `glob`, the auto-prompter's rules) over `/`-separated relative
// paths: picomatch with `**` (any number of folders), `*` and `?` (within one name), `[abc]` / `[!abc]` classes and
// `{a,b}` alternatives; dot files match like any other name, case counts, `\` escapes. Parentheses, `|` and a
// leading `!` are file-name characters here, not picomatch's regex groups, extglobs or negation. Wildcards match `.`
// and `..` too: the auto-prompter tests its rules on the paths a call names, and `**` matches one outside (`../x`).
// picomatch writes the expression; RE2 runs it, in time linear in the path (a model gives both the pattern and, to the
// auto-prompter, the path, and picomatch's lazy `*?` runs backtrack polynomially on JavaScript's engine).
import picomatch from 'picomatch/posix';
import { compileLinear, type LinearRegex } from '../../src-shared/linear-regex';

const OPTIONS: picomatch.PicomatchOptions = { dot: true, posix: true, nonegate: true, noextglob: true };
const MAGIC = /[*?[{]/;
/** `(`, `)` and `|` escaped (an already escaped character is left alone), so picomatch reads them as themselves. */
const literalGroups = (pattern: string) => pattern.replace(/\\.|[()|]/g, (c) => (c.length === 2 ? c : `\\${c}`));
/** A trailing `/**` names what is inside the folder, not the folder itself (picomatch's `a/**` also matches `a`). */
const insideOnly = (pattern: string) => (pattern.endsWith('/**') ? `${pattern}/*` : pattern);
/** The lookaheads by which picomatch's wildcards refuse `.` and `..` names. */
const { NO_DOTS, NO_DOTS_SLASH, ONE_CHAR } = picomatch.constants.globChars(false);
/** A name that is only `*` at the end of the pattern: picomatch's `(?=.)` keeps it from matching nothing there. */
const FINAL_STAR = `${ONE_CHAR}[^/]*?\\/?)$`;

/**
 * RE2 has no lookahead, so picomatch's `(?=.)` (a name that starts with `*` is not empty) is rewritten: at the end
 * of the pattern as "one or more characters, or the trailing `/`", which is what it means there; elsewhere a
 * character follows anyway and it is dropped (only a brace with an empty choice at the end, `*{,.ts}`, then also
 * matches an empty name).
 */
function withoutLookaheads(source: string): string {
  const tail = source.endsWith(FINAL_STAR) ? source.slice(0, -FINAL_STAR.length) : null;
  const strip = (s: string) => s.replaceAll(NO_DOTS, '').replaceAll(NO_DOTS_SLASH, '').replaceAll(ONE_CHAR, '');
  return tail === null ? strip(source) : `${strip(tail)}(?:[^/]+\\/?|\\/))$`;
}

/**
 * A test that matches exactly the relative paths the pattern names. `braces: false` reads `{`, `}` and `,` as
 * themselves (gitignore patterns have no alternatives).
 */
export function globToRegExp(pattern: string, { braces = true } = {}): LinearRegex {
  const re = picomatch.makeRe(insideOnly(literalGroups(pattern)), { ...OPTIONS, nobrace: !braces });
  const compiled = compileLinear(withoutLookaheads(re.source));
  // picomatch escapes every character it does not translate, so its output always compiles; if not, say which.
  if (!compiled.ok) throw new Error(`glob ${JSON.stringify(pattern)} made an expression that ${compiled.error}`);
  return compiled.re;
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

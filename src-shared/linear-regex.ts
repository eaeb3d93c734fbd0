// Regular expressions that run in time linear in their input: RE2 (through re2js, plain JS). Every pattern a model or
// a person gives (grep's pattern, the Auto Prompter's argument tests, globs) is applied with this, never with
// JavaScript's backtracking RegExp, on which one pattern like `(a|a)*b` can hold the event loop for minutes.
import { RE2JS, RE2JSSyntaxException } from 're2js';

/** What the callers need of a compiled pattern: whether it matches somewhere in a text. */
export interface LinearRegex {
  test(text: string): boolean;
}

export type CompiledRegex = { ok: true; re: LinearRegex } | { ok: false; error: string };

/** `\k<name>`, unless its backslash is itself escaped: re2js's translation would quietly read it as `k<name>`. */
const NAMED_BACKREFERENCE = /(?:^|[^\\])(?:\\\\)*\\k</;

const LOOKAHEAD_ERROR =
  'uses a lookahead ((?= or (?!), which the linear-time engine (RE2) cannot run; match the text that follows instead (for "foo not followed by bar", search for foo and leave bar out, or search twice)';
const BACKREFERENCE_ERROR =
  'uses a backreference (\\1 or \\k<name>), which the linear-time engine (RE2) cannot run; write the repeated text out (for (ab)\\1, write abab or (ab){2})';

/**
 * Compiles a JavaScript-style pattern (`\uXXXX`, `\u{…}`, `(?<name>…)` and `/` are translated; captureless
 * lookbehinds work) for RE2. A construct RE2 cannot run in linear time is refused with an error saying why and what to
 * write instead; `multiline` makes `^`/`$` match at line breaks too.
 */
export function compileLinear(source: string, { multiline = false } = {}): CompiledRegex {
  if (NAMED_BACKREFERENCE.test(source)) return { ok: false, error: BACKREFERENCE_ERROR };
  try {
    const flags = RE2JS.LOOKBEHINDS | (multiline ? RE2JS.MULTILINE : 0);
    return { ok: true, re: RE2JS.compile(RE2JS.translateRegExp(source), flags) };
  } catch (e) {
    if (!(e instanceof RE2JSSyntaxException)) throw e;
    if (e.input === '(?=' || e.input === '(?!') return { ok: false, error: LOOKAHEAD_ERROR };
    if (e.error === 'invalid escape sequence' && /^\\[1-9]/.test(e.input ?? '')) {
      return { ok: false, error: BACKREFERENCE_ERROR };
    }
    return {
      ok: false,
      error: `is not a valid regular expression: ${e.error}${e.input ? ` (at \`${e.input}\`)` : ''}`,
    };
  }
}

// Zod's issues in the app's words, written once: the contract's `issues` (ErrorIssue) and the one line
// "<field>: <message>; …" that every invalid-input error, broken-file error and refused tool call quotes.
import type { ErrorIssue } from './errors';

/** An issue as far as the app reads one: zod's own, or one a library rethrows (the MCP SDK's malformed result). */
export interface IssueLike {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** How the one line names things. */
export interface IssueWords {
  /** What an issue about the whole value is called: `input`, `arguments`, `(top level)`. */
  whole: string;
  /** The fields the checked value sits under, named before each issue's own path (`policy`, `servers.web`). */
  under?: readonly PropertyKey[];
  /** At most this many issues (a broken file names its first three, not every field). */
  limit?: number;
  /** How a path is written (a file may name its fields its own way); dotted by default. */
  name?: (path: readonly PropertyKey[]) => string;
}

/** `a.0.b`; a symbol key as its description. */
export const dottedPath = (path: readonly PropertyKey[]): string => path.map(String).join('.');

/** The issues as the contract carries them, each path under `under`. */
export function errorIssues(issues: readonly IssueLike[], under: readonly PropertyKey[] = []): ErrorIssue[] {
  return issues.map((i) => ({
    path: [...under, ...i.path].map((p) => (typeof p === 'symbol' ? String(p) : p)),
    message: i.message,
  }));
}

/** "<field>: <message>; <field>: <message>" — each field under `under`, `whole` for the value itself. */
export function describeIssues(issues: readonly IssueLike[], words: IssueWords): string {
  const { whole, under = [], limit, name = dottedPath } = words;
  return issues
    .slice(0, limit)
    .map((i) => `${name([...under, ...i.path]) || whole}: ${i.message}`)
    .join('; ');
}

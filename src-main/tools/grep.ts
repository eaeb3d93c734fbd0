// grep { pattern, path?, glob? }: lines of the workspace's text files that match a regular expression (RE2 syntax,
// run in linear time), as `file:line:text`.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { compileLinear, type LinearRegex } from '../../src-shared/linear-regex';
import { normalizePattern } from './glob';
import { globToRegExp, literalBase, skippedFolders } from './glob-match';
import { fail, ok } from './outcome';
import { resolveInWorkspace } from './sandbox';
import { capLine, looksBinary, splitLines } from './text';
import type { ToolDef } from './types';
import { type WalkState, walkFiles } from './walk';

export const GREP_MAX_MATCHES = 500;
export const GREP_MAX_LINE_CHARS = 500;
export const GREP_MAX_FILE_BYTES = 5 * 1024 * 1024;

export const GrepArgs = z.strictObject({
  pattern: z
    .string()
    .min(1)
    .describe('Regular expression (RE2 syntax: no lookahead or backreferences), matched against each line.'),
  path: z
    .string()
    .optional()
    .describe('File or folder to search, relative to the workspace folder. Default: the whole workspace.'),
  glob: z
    .string()
    .optional()
    .describe(
      'Only search files matching this glob: without a / it matches the file name (*.ts), with one the path from the workspace folder (src/**/*.ts).',
    ),
});
export type GrepArgs = z.infer<typeof GrepArgs>;

/** Opened without blocking, so a FIFO that turns up in place of a file cannot hang the read (POSIX; 0 elsewhere). */
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

/** A regular file's bytes (null: not a regular file, too big, or unreadable), in four system calls. */
function readSmallFile(file: string): Buffer | null {
  let fd: number;
  try {
    fd = fs.openSync(file, OPEN_FLAGS);
  } catch {
    return null;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || stat.size > GREP_MAX_FILE_BYTES) return null;
    const bytes = Buffer.allocUnsafe(stat.size);
    let filled = 0;
    while (filled < bytes.length) {
      const n = fs.readSync(fd, bytes, filled, bytes.length - filled, null);
      if (n === 0) break; // shrank since fstat
      filled += n;
    }
    return filled < bytes.length ? bytes.subarray(0, filled) : bytes;
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A whole-text test that is true whenever some line matches the pattern (and sometimes when none does), so a file it
 * rejects need not be split into lines: the pattern with `^`/`$` at line breaks too, for patterns without flag groups,
 * lookbehinds or `\A`/`\z` — the only constructs that could look past a line's end. (RE2's `$` does not match before
 * `\r`, so a text with one is split without the test.)
 */
export function linePrefilter(source: string): LinearRegex | null {
  if (/\(\?(?!:|<[^=!]|P<)|\\[Az]/.test(source)) return null;
  const compiled = compileLinear(source, { multiline: true });
  return compiled.ok ? compiled.re : null;
}

/**
 * Synchronous on purpose: through the thread pool a file costs several round trips (stat, open, fstat, read,
 * close), each far dearer than the read itself; the walk that feeds this gives the event loop a turn every few ms.
 */
function searchFile(
  file: string,
  rel: string,
  re: LinearRegex,
  prefilter: LinearRegex | null,
  out: string[],
  budget: { more: number },
) {
  const bytes = readSmallFile(file);
  if (bytes === null || looksBinary(bytes)) return;
  const text = bytes.toString('utf8');
  if (prefilter !== null && !text.includes('\r') && !prefilter.test(text)) return;
  const lines = splitLines(text);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (!re.test(line)) continue;
    if (out.length < GREP_MAX_MATCHES) out.push(`${rel}:${i + 1}:${capLine(line, GREP_MAX_LINE_CHARS)}`);
    else budget.more++;
  }
}

const isWithinRel = (parent: string, rel: string) => parent === '.' || rel === parent || rel.startsWith(`${parent}/`);

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

export async function grep(args: GrepArgs, workspacePath: string, signal?: AbortSignal) {
  // RE2, not JavaScript's RegExp: a backtracking engine can take exponential time on one line and freeze the host.
  const compiled = compileLinear(args.pattern);
  if (!compiled.ok) return fail(`pattern ${compiled.error}`);
  const re = compiled.re;
  let fileFilter: ((rel: string) => boolean) | undefined;
  let globBase = '.';
  if (args.glob !== undefined) {
    const checked = normalizePattern(args.glob);
    if (!checked.ok) return fail(checked.error);
    const globRe = globToRegExp(checked.pattern);
    if (checked.pattern.includes('/')) globBase = literalBase(checked.pattern);
    fileFilter = checked.pattern.includes('/')
      ? (rel) => globRe.test(rel)
      : (rel) => globRe.test(rel.slice(rel.lastIndexOf('/') + 1));
  }
  const target = resolveInWorkspace(workspacePath, args.path ?? '.');
  if (!target.ok) return fail(target.error);
  let isDir: boolean;
  try {
    isDir = (await fs.promises.stat(target.path)).isDirectory();
  } catch {
    return fail(`${args.path} does not exist`);
  }
  const prefilter = linePrefilter(args.pattern);
  const out: string[] = [];
  const budget = { more: 0 };
  const state: WalkState = { visited: 0, capped: false };
  if (!isDir) {
    searchFile(target.path, target.rel, re, prefilter, out, budget);
  } else {
    const skip = skippedFolders(args.glob, target.rel);
    // A glob with leading folders (`dist/**/*.js`) can only match below them: the walk starts there, so a folder it
    // names is searched even when .gitignore ignores it.
    let start = target.path;
    if (globBase !== '.' && isWithinRel(target.rel, globBase)) {
      const narrowed = resolveInWorkspace(workspacePath, globBase);
      if (!narrowed.ok || !isDirectory(narrowed.path)) return ok('No matches');
      start = narrowed.path;
    }
    const walk = walkFiles(start, { root: target.root, skip, gitignore: true, signal }, state);
    for await (const rel of walk) {
      if (fileFilter && !fileFilter(rel)) continue;
      searchFile(path.join(target.root, rel), rel, re, prefilter, out, budget);
    }
  }
  if (out.length === 0) return ok('No matches');
  if (budget.more > 0) out.push(`… ${budget.more} more matching lines not shown; narrow the pattern, path or glob`);
  if (state.capped) out.push('… the search stopped early (too many files); narrow the path or glob');
  return ok(out.join('\n'));
}

export const grepTool: ToolDef<GrepArgs> = {
  name: 'grep',
  description:
    'Search the text files of the workspace for lines matching a regular expression. Returns `file:line:text`; binary files and files ignored by .gitignore are left out, and .git and node_modules are skipped unless the path or glob names them. The pattern is RE2 syntax (no lookahead or backreferences).',
  parameters: GrepArgs,
  readOnly: true,
  execute: (args, ctx) => grep(args, ctx.workspacePath, ctx.signal),
};

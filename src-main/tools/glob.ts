// glob { pattern }: the workspace's files whose relative path matches a glob pattern, sorted.
import fs from 'node:fs/promises';
import { z } from 'zod';
import { globToRegExp, literalBase, skippedFolders } from './glob-match';
import { fail, ok } from './outcome';
import { resolveInWorkspace } from './sandbox';
import type { ToolDef } from './types';
import { type WalkState, walkFiles } from './walk';

export const GLOB_MAX_RESULTS = 1000;

export const GlobArgs = z.strictObject({
  pattern: z
    .string()
    .min(1)
    .describe(
      'Glob pattern relative to the workspace folder: ** = any folders, * and ? = within one name, {a,b} = either. ' +
        'Example: src/**/*.{ts,tsx}',
    ),
});
export type GlobArgs = z.infer<typeof GlobArgs>;

/** The pattern, checked: relative, no `..`, without a leading `./`. */
export function normalizePattern(pattern: string): { ok: true; pattern: string } | { ok: false; error: string } {
  if (pattern.startsWith('/') || /^[A-Za-z]:[\\/]/.test(pattern)) {
    return { ok: false, error: `the pattern ${pattern} is absolute; patterns are relative to the workspace folder` };
  }
  const cleaned = pattern.replace(/^(\.\/)+/, '');
  if (cleaned.split('/').includes('..')) {
    return { ok: false, error: `the pattern ${pattern} is outside the workspace folder (..)` };
  }
  return { ok: true, pattern: cleaned === '' || cleaned === '.' ? '**' : cleaned };
}

export async function glob(args: GlobArgs, workspacePath: string, signal?: AbortSignal) {
  const checked = normalizePattern(args.pattern);
  if (!checked.ok) return fail(checked.error);
  const { pattern } = checked;
  const base = resolveInWorkspace(workspacePath, literalBase(pattern));
  if (!base.ok) return fail(base.error);
  try {
    if (!(await fs.stat(base.path)).isDirectory()) return ok(`No files match ${args.pattern}`);
  } catch {
    return ok(`No files match ${args.pattern}`);
  }
  const re = globToRegExp(pattern);
  const state: WalkState = { visited: 0, capped: false };
  const all: string[] = [];
  for await (const rel of walkFiles(
    base.path,
    { root: base.root, skip: skippedFolders(pattern), gitignore: true, signal },
    state,
  )) {
    if (re.test(rel)) all.push(rel);
  }
  if (all.length === 0) return ok(`No files match ${args.pattern}`);
  all.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const matches = all.slice(0, GLOB_MAX_RESULTS);
  const more = all.length - matches.length;
  if (more > 0) matches.push(`… ${more} more files match; narrow the pattern`);
  if (state.capped) matches.push('… the search stopped early (too many files); narrow the pattern');
  return ok(matches.join('\n'));
}

export const globTool: ToolDef<GlobArgs> = {
  name: 'glob',
  description:
    'Find files of the workspace by a glob pattern. Returns matching paths, sorted; files ignored by .gitignore are left out, and .git and node_modules are skipped unless the pattern names them.',
  parameters: GlobArgs,
  readOnly: true,
  execute: (args, ctx) => glob(args, ctx.workspacePath, ctx.signal),
};

// What a snapshot leaves out, found among the files git would add (untracked or changed against the task's index):
// files over the size limit, files with a filter attribute (LFS or any other driver: the person's filter commands
// never run), nested repositories (never renamed: git lists them as `dir/`) and files the host cannot read.
import fs from 'node:fs';
import path from 'node:path';
import type { SkippedPath } from '../../src-shared/checkpoints';
import type { StoreGit } from './store-git';

/** The candidates: untracked (not ignored) and changed paths below the workspace, as git lists them. */
export async function changedPaths(git: StoreGit): Promise<string[]> {
  const out = await git.run(['ls-files', '-z', '-o', '-m', '--exclude-standard'], { inWorkspace: true });
  return [...new Set(out.split('\0').filter((p) => p !== ''))];
}

export async function findSkipped(git: StoreGit, workspace: string, maxFileBytes: number): Promise<SkippedPath[]> {
  const skipped: SkippedPath[] = [];
  const files: string[] = [];
  for (const p of await changedPaths(git)) {
    if (p.endsWith('/')) {
      skipped.push({ path: p.slice(0, -1), reason: 'nested_repository' });
      continue;
    }
    const reason = fileReason(path.join(workspace, p), maxFileBytes);
    if (reason === 'gone') continue;
    if (reason) skipped.push({ path: p, reason });
    else files.push(p);
  }
  if (files.length > 0) skipped.push(...(await filtered(git, files)));
  return skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function fileReason(abs: string, maxFileBytes: number): 'too_big' | 'unreadable' | 'gone' | null {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(abs);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : 'unreadable';
  }
  if (!st.isFile()) return null;
  if (st.size > maxFileBytes) return 'too_big';
  try {
    fs.accessSync(abs, fs.constants.R_OK);
  } catch {
    return 'unreadable';
  }
  return null;
}

/** The files with a `filter` attribute: `lfs` for Git LFS, `filter` for any other driver. */
async function filtered(git: StoreGit, files: readonly string[]): Promise<SkippedPath[]> {
  const out = await git.run(['check-attr', '-z', '--stdin', 'filter'], {
    inWorkspace: true,
    input: `${files.join('\0')}\0`,
  });
  const parts = out.split('\0');
  const skipped: SkippedPath[] = [];
  for (let i = 0; i + 2 < parts.length; i += 3) {
    const [p, , value] = [parts[i] ?? '', parts[i + 1], parts[i + 2]];
    if (value === 'unspecified' || value === 'unset') continue;
    skipped.push({ path: p, reason: value === 'lfs' ? 'lfs' : 'filter' });
  }
  return skipped;
}

/** Whether `p` is a skipped path or lies below one (a nested repository's files). */
export function isSkipped(p: string, skipped: ReadonlySet<string>): boolean {
  if (skipped.has(p)) return true;
  for (let i = p.indexOf('/'); i !== -1; i = p.indexOf('/', i + 1)) if (skipped.has(p.slice(0, i))) return true;
  return false;
}

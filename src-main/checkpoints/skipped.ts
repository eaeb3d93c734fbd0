// What a snapshot takes in and leaves out, found among the untracked and changed files (against the task's index):
// files over the size limit, files with a filter attribute (LFS or any other driver: the person's filter commands
// never run), nested repositories (never renamed: git lists them as `dir/`) and files the host cannot read.
import fs from 'node:fs';
import path from 'node:path';
import type { SkippedPath } from '../../src-shared/checkpoints';
import type { StoreGit } from './store-git';

/**
 * One look at the work tree (`ls-files -o -m`: untracked files not ignored, and files changed or deleted against the
 * task's index): the paths to bring into the index, and what is left out.
 */
export async function scanChanges(
  git: StoreGit,
  workspace: string,
  maxFileBytes: number,
): Promise<{ update: string[]; gone: string[]; skipped: SkippedPath[] }> {
  const out = await git.run(['ls-files', '-z', '-o', '-m', '--exclude-standard'], { inWorkspace: true });
  const skipped: SkippedPath[] = [];
  const update: string[] = [];
  const gone: string[] = [];
  const files: string[] = [];
  const linked = symlinkedFolders(workspace);
  const listed = out.split('\0').filter((p) => p !== '');
  // A path listed more than once is unmerged (the person's merge in progress): one left out must leave the task's
  // index too, or no tree could be written.
  const seen = new Set<string>();
  const unmerged = new Set<string>();
  for (const p of listed) (seen.has(p) ? unmerged : seen).add(p);
  for (const p of seen) {
    if (p.endsWith('/')) {
      skipped.push({ path: p.slice(0, -1), reason: 'nested_repository' });
      continue;
    }
    // A file below a folder that is now a symbolic link is gone for git (it never follows the link).
    const reason = linked(p) ? 'gone' : fileReason(path.join(workspace, p), maxFileBytes);
    if (reason === 'gone') gone.push(p);
    else if (reason) skipped.push({ path: p, reason });
    else files.push(p);
  }
  const filteredOut = files.length > 0 ? await filtered(git, files) : [];
  const left = new Set(filteredOut.map((s) => s.path));
  update.push(...files.filter((p) => !left.has(p)));
  skipped.push(...filteredOut);
  for (const s of skipped) if (unmerged.has(s.path)) gone.push(s.path);
  return { update, gone, skipped: skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) };
}

/** Whether a path's folder (or one above it) is a symbolic link; folders looked at once per scan. */
function symlinkedFolders(workspace: string): (rel: string) => boolean {
  const seen = new Map<string, boolean>();
  const isLink = (folder: string): boolean => {
    let v = seen.get(folder);
    if (v === undefined) {
      const parent = path.posix.dirname(folder);
      v = (parent !== '.' && isLink(parent)) || isSymlink(path.join(workspace, folder));
      seen.set(folder, v);
    }
    return v;
  };
  return (rel) => {
    const folder = path.posix.dirname(rel);
    return folder !== '.' && isLink(folder);
  };
}

function isSymlink(abs: string): boolean {
  try {
    return fs.lstatSync(abs).isSymbolicLink();
  } catch {
    return false;
  }
}

function fileReason(abs: string, maxFileBytes: number): 'too_big' | 'unreadable' | 'gone' | null {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(abs);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : 'unreadable';
  }
  // A submodule's folder: git records its commit. A file that became a folder: the file is gone (the folder's files
  // are listed on their own).
  if (st.isDirectory()) return fs.existsSync(path.join(abs, '.git')) ? null : 'gone';
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

// What a snapshot takes in and leaves out, found among the untracked and changed files (against the task's index):
// files over the size limit, files with a filter attribute (LFS or any other driver: the person's filter commands
// never run), nested repositories (never renamed: git lists them as `dir/`) and files the host cannot read. The same
// look says what changed against the task's index, which spares a snapshot its diff when the index held its parent.
import fs from 'node:fs';
import path from 'node:path';
import type { CheckpointFile, SkippedPath } from '../../src-shared/checkpoints';
import type { StoreGit } from './store-git';

export interface Scan {
  /** Paths to hash into the task's index. */
  update: string[];
  /** Paths to take out of it. */
  gone: string[];
  skipped: SkippedPath[];
  /**
   * What bringing the index up to the workspace changes in its tree, as a diff of the two would say; null when
   * only a diff can tell (a possible rename, a submodule, a merge in progress).
   */
  changes: CheckpointFile[] | null;
}

/**
 * One look at the work tree (`ls-files -o -m`: untracked files not ignored, and files changed or deleted against the
 * task's index, tagged by `-t`): the paths to bring into the index, what is left out, and what that changes.
 */
export async function scanChanges(git: StoreGit, workspace: string, maxFileBytes: number): Promise<Scan> {
  const out = await git.run(['ls-files', '-z', '-t', '-o', '-m', '--exclude-standard'], { inWorkspace: true });
  const skipped: SkippedPath[] = [];
  const update: string[] = [];
  const gone: string[] = [];
  const files: string[] = [];
  const linked = symlinkedFolders(workspace);
  // `? path`: untracked; `C path`: changed or deleted (ls-files -m compares contents, not only stat data).
  const untracked = new Set<string>();
  const listed: string[] = [];
  for (const line of out.split('\0')) {
    if (line === '') continue;
    const p = line.slice(2);
    if (line.startsWith('? ')) untracked.add(p);
    listed.push(p);
  }
  // A path listed more than once is unmerged (the person's merge in progress): one left out must leave the task's
  // index too, or no tree could be written.
  const seen = new Set<string>();
  const unmerged = new Set<string>();
  for (const p of listed) (seen.has(p) ? unmerged : seen).add(p);
  // A folder hashed is a submodule's commit: diff-trees leave those out, only a diff can tell.
  let folders = false;
  for (const p of seen) {
    if (p.endsWith('/')) {
      skipped.push({ path: p.slice(0, -1), reason: 'nested_repository' });
      continue;
    }
    // A file below a folder that is now a symbolic link is gone for git (it never follows the link).
    const abs = path.join(workspace, p);
    const reason = linked(p) ? 'gone' : fileReason(abs, maxFileBytes);
    if (reason === 'gone') gone.push(p);
    else if (reason) skipped.push({ path: p, reason });
    else {
      files.push(p);
      // A new link may replace a folder, whose files git then drops unlisted: a diff tells.
      if (!folders && (isFolder(abs) || (untracked.has(p) && isSymlink(abs)))) folders = true;
    }
  }
  // No driver configured: git stores such files as they are, so nothing needs leaving out (and no process runs).
  const filteredOut = files.length > 0 && git.hasFilterDrivers ? await filtered(git, files) : [];
  const left = new Set(filteredOut.map((s) => s.path));
  update.push(...files.filter((p) => !left.has(p)));
  skipped.push(...filteredOut);
  for (const s of skipped) if (unmerged.has(s.path)) gone.push(s.path);
  const changes = unmerged.size > 0 || folders ? null : changesOf(update, gone, untracked);
  return {
    update,
    gone,
    skipped: skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    changes,
  };
}

/** The changes of hashing `update` and removing `gone`, in git's order; null when some could pair as a rename. */
export function changesOf(update: readonly string[], gone: readonly string[], untracked: ReadonlySet<string>) {
  const changes: CheckpointFile[] = [];
  for (const p of update) changes.push({ path: p, change: untracked.has(p) ? 'added' : 'modified' });
  // An untracked path found gone (removed meanwhile, below a linked folder) was never in the index.
  for (const p of gone) if (!untracked.has(p)) changes.push({ path: p, change: 'deleted' });
  const kinds = new Set(changes.map((c) => c.change));
  if (kinds.has('added') && kinds.has('deleted')) return null;
  return changes.sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
}

function isFolder(abs: string): boolean {
  try {
    return fs.lstatSync(abs).isDirectory();
  } catch {
    return false;
  }
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
  // Sockets and pipes are not files git saves (reading a pipe could wait forever).
  if (!st.isFile()) return st.isSymbolicLink() ? null : 'gone';
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

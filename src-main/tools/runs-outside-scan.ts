// Where the files of runs-outside.ts are in one writable folder of the OS sandbox, as it mounts them read-only: the
// folder's own (there or not: the sandbox plants an empty read-only placeholder for a missing one, removed after the
// command), and those of nested folders down to SCAN_DEPTH that exist (nested repositories, a nested `.envrc`). A
// missing `.git` gets placeholders below it, so `.git` is an empty read-only folder and `git init` fails there. What
// mounts cannot hold is swept after the process: a new `commondir`, and the config and hooks of a nested repository
// it made.
import fs from 'node:fs';
import path from 'node:path';
import { FOLDER_ENTRIES, GIT_DIR_ENTRIES } from './runs-outside';

/** How deep below a writable folder existing entries are looked for (editors look for nested repositories too). */
export const SCAN_DEPTH = 4;
/** Folders looked into at most, so a huge tree cannot hold a command up. */
const SCAN_MAX_FOLDERS = 20_000;
const SKIPPED = new Set(['node_modules', '.git']);

/**
 * Files of a git folder whose absence cannot be held by a placeholder: an empty `commondir` makes git fail, in the
 * sandbox and on the host. When a command made one, it is removed after the command (sweep).
 */
const SWEPT_GIT_FILES = new Set(['commondir', 'config.worktree']);

export interface FolderProtection {
  /** The writable folder. */
  folder: string;
  /** Every nested `.git` it had (folders and pointer files). */
  gits: string[];
  /** Paths the sandbox mounts read-only (or holds absent with a placeholder). */
  readOnly: string[];
  /** Paths that do not exist now and are removed if they do once the process has exited. */
  sweep: string[];
}

const kindOf = (p: string): 'folder' | 'file' | null => {
  try {
    return fs.lstatSync(p).isDirectory() ? 'folder' : 'file';
  } catch {
    return null;
  }
};

/** The protections of one `.git` entry; for a missing one, placeholders when `holdMissing` (a writable folder's own). */
function gitEntry(gitPath: string, out: FolderProtection, holdMissing: boolean): void {
  const kind = kindOf(gitPath);
  if (kind === 'file') {
    out.readOnly.push(gitPath);
    return;
  }
  if (kind === null && !holdMissing) return;
  for (const entry of GIT_DIR_ENTRIES) {
    const p = path.join(gitPath, entry.name);
    if (kind === 'folder' && SWEPT_GIT_FILES.has(entry.name) && kindOf(p) === null) out.sweep.push(p);
    else out.readOnly.push(p);
  }
}

/** The entry of `dir` named `name` in any case (`.VSCode` is `.vscode` on a case-insensitive file system). */
const namesIn = (dir: string, names: readonly string[], lower: string) =>
  names.filter((n) => n.toLowerCase() === lower).map((n) => path.join(dir, n));

/** Calls `visit` for every folder below `folder` down to SCAN_DEPTH (itself at depth 0), links not followed. */
function walkFolders(folder: string, visit: (dir: string, names: string[], depth: number) => void): void {
  let visited = 0;
  const walk = (dir: string, depth: number) => {
    if (depth > SCAN_DEPTH || visited++ > SCAN_MAX_FOLDERS) return;
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      return;
    }
    visit(dir, names, depth);
    for (const name of names) {
      if (SKIPPED.has(name.toLowerCase())) continue;
      const child = path.join(dir, name);
      if (kindOf(child) === 'folder') walk(child, depth + 1);
    }
  };
  walk(folder, 0);
}

/** Every `.git` (folder or pointer file) below `folder`, its own excepted. */
function nestedGits(folder: string): string[] {
  const found: string[] = [];
  walkFolders(folder, (dir, names, depth) => {
    if (depth > 0) found.push(...namesIn(dir, names, '.git'));
  });
  return found;
}

/** What the OS sandbox keeps read-only in `folder` (a writable folder of a command's scope). */
export function protectionsOf(folder: string): FolderProtection {
  const out: FolderProtection = { folder, readOnly: [], sweep: [], gits: [] };
  for (const entry of FOLDER_ENTRIES) out.readOnly.push(path.join(folder, entry.name));
  gitEntry(path.join(folder, '.git'), out, true);
  walkFolders(folder, (dir, names, depth) => {
    if (depth === 0) return;
    for (const git of namesIn(dir, names, '.git')) {
      out.gits.push(git);
      gitEntry(git, out, false);
    }
    for (const entry of FOLDER_ENTRIES) {
      const [first = '', ...rest] = entry.name.split('/');
      for (const found of namesIn(dir, names, first)) {
        const p = path.join(found, ...rest);
        if (kindOf(p) !== null) out.readOnly.push(p);
      }
    }
  });
  return { ...out, readOnly: [...new Set(out.readOnly)], sweep: [...new Set(out.sweep)] };
}

/** What git would run of a repository a process made: removed after it (git works on without them). */
const NEW_REPO_PARTS = ['config', 'config.worktree', 'commondir', 'hooks', 'info'];

/**
 * After a sandboxed process has exited: removes what it made where nothing may be made — a `commondir` or
 * `config.worktree` in an existing `.git` folder, and in a nested repository it created (`git init sub`, a clone)
 * the parts git would run (its config and hooks), or a `.git` pointer file it wrote. Returns what was removed.
 */
export function sweepAfter(protection: FolderProtection): string[] {
  const removed = sweep(protection.sweep);
  const before = new Set(protection.gits);
  for (const git of nestedGits(protection.folder)) {
    if (before.has(git)) continue;
    removed.push(...sweep(kindOf(git) === 'file' ? [git] : NEW_REPO_PARTS.map((n) => path.join(git, n))));
  }
  return removed;
}

/** Removes what exists of `paths`; returns what was removed. */
function sweep(paths: readonly string[]): string[] {
  const removed: string[] = [];
  for (const p of paths) {
    if (kindOf(p) === null) continue;
    fs.rmSync(p, { recursive: true, force: true });
    removed.push(p);
  }
  return removed;
}

// Makes the workspace's files equal to a snapshot's where the current snapshot differs: computed from the two trees
// (so a rerun after a crash midway completes the same restore), every blob read before anything is written, files
// written atomically (temp file + rename) with their mode, files the target lacks removed. Nothing git would run
// (checkout hooks, smudge filters) runs: the files are written by the host itself. Skipped paths are never touched.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { SkippedPath } from '../../src-shared/checkpoints';
import { readObjects } from './read-objects';
import { isSkipped } from './skipped';
import { skippedOf } from './snapshot';
import type { StoreGit } from './store-git';
import { diffTrees, type TreeEntryChange } from './tree-diff';
import type { RestoreResult } from './types';

const SYMLINK = '120000';
const EXECUTABLE = '100755';

export class RestoreFailed extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A workspace-relative path a caller gave: `/`-separated, inside the workspace. */
function checkedPath(p: string): string {
  const parts = p.split('/');
  if (p === '' || p.startsWith('/') || parts.some((s) => s === '' || s === '.' || s === '..') || p.includes('\0')) {
    throw new RestoreFailed(`checkpoints: ${JSON.stringify(p)} is not a workspace-relative file path`, p);
  }
  return p;
}

export async function restoreSnapshot(
  git: StoreGit,
  target: string,
  current: string,
  paths?: readonly string[],
): Promise<RestoreResult> {
  const only = paths?.map(checkedPath);
  if (only && only.length === 0) return { restored: [], removed: [] };
  const [entries, commits] = await Promise.all([
    diffTrees(git, current, target, { renames: false, paths: only }),
    readObjects(git, [target, current]),
  ]);
  const skipped = new Set<string>();
  for (const name of [target, current]) {
    const obj = commits.get(name);
    if (obj?.type !== 'commit') continue;
    for (const s of z.array(SkippedPath).parse(skippedOf(obj.content.toString('utf8')))) skipped.add(s.path);
  }
  const touched = entries.filter((e) => !isSkipped(e.path, skipped));
  const writes = touched.filter((e) => e.status !== 'D');
  const removals = touched.filter((e) => e.status === 'D').map((e) => e.path);

  const blobs = await readObjects(
    git,
    writes.map((e) => e.newBlob),
  );
  for (const e of writes) {
    if (blobs.get(e.newBlob)?.type !== 'blob') {
      throw new RestoreFailed(
        `checkpoints: cannot read the saved copy of ${e.path} (object ${e.newBlob.slice(0, 12)} missing or damaged); nothing was changed`,
        e.path,
      );
    }
  }
  const root = git.repo.workspace;
  const removing = new Set(removals);
  for (const e of writes) refuseSymlinkedFolders(root, e.path, removing);

  for (const p of removals) removeFile(root, p);
  for (const e of writes) writeFile(root, e, blobs.get(e.newBlob)?.content ?? Buffer.alloc(0));
  return { restored: writes.map((e) => e.path).sort(), removed: [...removals].sort() };
}

/** A folder on the way that is a symlink would take the write outside the workspace: refused before any change. */
function refuseSymlinkedFolders(root: string, rel: string, removing: ReadonlySet<string>): void {
  const parts = rel.split('/');
  for (let i = 1; i < parts.length; i++) {
    const folder = parts.slice(0, i).join('/');
    let st: fs.Stats;
    try {
      st = fs.lstatSync(path.join(root, folder));
    } catch {
      return; // absent: created as a folder
    }
    if (st.isSymbolicLink() && !removing.has(folder)) {
      throw new RestoreFailed(
        `checkpoints: cannot restore ${rel}: its folder ${folder} is now a symbolic link; nothing was changed`,
        rel,
      );
    }
  }
}

function removeFile(root: string, rel: string): void {
  const abs = path.join(root, rel);
  try {
    if (fs.lstatSync(abs).isDirectory()) return; // a folder now: not the file the snapshot knew
    fs.unlinkSync(abs);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  // The folders the removal emptied go too, up to (never including) the workspace.
  for (let dir = path.dirname(abs); dir !== root && dir.startsWith(root + path.sep); dir = path.dirname(dir)) {
    try {
      fs.rmdirSync(dir);
    } catch {
      break;
    }
  }
}

function writeFile(root: string, e: TreeEntryChange, content: Buffer): void {
  const abs = path.join(root, e.path);
  const temp = path.join(path.dirname(abs), `.${path.basename(abs)}.maestro-${randomBytes(4).toString('hex')}`);
  try {
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    if (e.newMode === SYMLINK) {
      fs.symlinkSync(content.toString('utf8'), temp);
    } else {
      fs.writeFileSync(temp, content, { mode: e.newMode === EXECUTABLE ? 0o755 : 0o644, flag: 'wx' });
      fs.chmodSync(temp, modeFor(abs, e.newMode === EXECUTABLE));
    }
    fs.renameSync(temp, abs);
  } catch (err) {
    fs.rmSync(temp, { force: true });
    throw new RestoreFailed(`checkpoints: cannot write ${e.path}: ${(err as Error).message}`, e.path);
  }
}

/** The file's present permissions with the executable bits the snapshot says (0644/0755 for a new file). */
function modeFor(abs: string, executable: boolean): number {
  let mode = 0o644;
  try {
    const st = fs.lstatSync(abs);
    if (st.isFile()) mode = st.mode & 0o777;
  } catch {}
  return executable ? mode | ((mode & 0o444) >> 2) : mode & ~0o111;
}

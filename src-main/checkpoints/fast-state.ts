// What a step's fast capture (fast-capture.ts) compares the workspace against, built after each capture git made:
// every saved file with the stat data it was hashed at (from the task's index, which git just wrote), every folder
// that is not ignored with its own stat data, the ignored and skipped names, and the files whose change would change
// what is ignored (.gitignore files, info/exclude, the config files). Built only where a file's bytes are its blob:
// no attributes anywhere (no eol conversion, ident, encoding or filter) and no autocrlf; elsewhere git keeps capturing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SkippedPath } from '../../src-shared/checkpoints';
import { changedAtNs, readIndexFile, type StatKey, sameStat, statKey } from './index-file';
import { type ObjectDb, objectName } from './loose-object';
import type { StoreGit } from './store-git';
import { TreeBuilder } from './tree-build';

/** A stat taken this long after the file's last change is safe to trust (git's racy-git rule, with room for coarse clocks). */
export const RACY_NS = 2_000_000_000n;

export interface SavedFile {
  mode: number;
  oid: string;
  /** The stat data the file had when hashed; null when it must be hashed again (changed too recently to trust). */
  stat: StatKey | null;
}

export interface FastState {
  db: ObjectDb;
  builder: TreeBuilder;
  /** The tree of the last capture. */
  tree: string;
  files: Map<string, SavedFile>;
  /** Folders that are not ignored (workspace-relative, '' for the top), with their stat data (null: look inside again). */
  dirs: Map<string, StatKey | null>;
  /** Names found ignored (git check-ignore), never looked into; whether each was a folder (`dir/` patterns). */
  ignored: Map<string, boolean>;
  skipped: SkippedPath[];
  /** The skipped paths' stat data when the capture left them out ('dir' for a nested repository). */
  skippedStats: Map<string, StatKey | 'dir'>;
  /** Files whose change may change what is ignored or how files are stored, with their stamp. */
  rules: Map<string, string>;
  maxFileBytes: number;
  /** The filter and core settings git printed when the state was built. */
  config: string;
  /** The files captured since the task's index was written (null: removed): git's index is brought up to them first. */
  unsynced: Map<string, SavedFile | null>;
}

/** A path's stamp: any change of the file (or its coming or going) changes it. */
export function stamp(abs: string): string {
  try {
    const st = fs.lstatSync(abs, { bigint: true });
    return `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.mode}`;
  } catch {
    return 'none';
  }
}

export const nowNs = () => BigInt(Date.now()) * 1_000_000n;

export function lstatKey(abs: string): { key: StatKey; st: fs.BigIntStats } | null {
  try {
    const st = fs.lstatSync(abs, { bigint: true });
    return { key: statKey(st), st };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw e;
  }
}

/** A file's blob (a regular file's bytes, a symbolic link's target) and the stat to keep for it (null: racy). */
export function hashFile(db: ObjectDb, abs: string, before: StatKey, startedNs: bigint) {
  const body =
    before.mode === 0o120000 ? Buffer.from(fs.readlinkSync(abs, { encoding: 'buffer' })) : fs.readFileSync(abs);
  const after = lstatKey(abs);
  const steady = after !== null && sameStat(before, after.key) && changedAtNs(before) < startedNs - RACY_NS;
  return { body, oid: objectName(db.format, 'blob', body), stat: steady ? before : null };
}

const FALSE = new Set(['false', 'no', 'off', '0']);
const TRUE = new Set(['true', 'yes', 'on', '1', '']);

/** The files that decide what is ignored and how files are stored, outside the workspace's folders. */
function ruleFiles(git: StoreGit): string[] | null {
  const { repo } = git;
  const core = git.coreConfig;
  // Conversions and comparisons the fast capture does not make: git keeps them.
  if (!FALSE.has(core.get('autocrlf') ?? 'false')) return null;
  if (FALSE.has(core.get('filemode') ?? 'true') || FALSE.has(core.get('symlinks') ?? 'true')) return null;
  if (TRUE.has(core.get('ignorecase') ?? 'false') || core.has('attributesfile')) return null;
  const home = os.homedir();
  const files = [
    path.join(repo.gitDir, 'config'),
    path.join(repo.gitDir, 'info', 'exclude'),
    path.join(repo.gitDir, 'info', 'attributes'),
    path.join(home, '.gitconfig'),
    path.join(home, '.config', 'git', 'config'),
    path.join(home, '.config', 'git', 'ignore'),
    path.join(home, '.config', 'git', 'attributes'),
  ];
  const excludes = core.get('excludesfile');
  if (excludes) files.push(excludes.startsWith('~/') ? path.join(home, excludes.slice(2)) : excludes);
  // The folders between the repository's top and the workspace (a workspace below the top).
  let folder = repo.workspace;
  while (folder !== repo.workTree && folder.startsWith(repo.workTree)) {
    folder = path.dirname(folder);
    files.push(path.join(folder, '.gitignore'), path.join(folder, '.gitattributes'));
  }
  return files;
}

/**
 * The state after a capture git made (`tree`, `skipped`), read from the task's index and a walk of the workspace;
 * null where the fast capture would not see what git sees. Without a capture (a task's first, from the index it
 * starts with): the index's tree, its trees left to write (the builder's drain); the files not in it are the next
 * capture's.
 */
export async function buildFastState(
  git: StoreGit,
  db: ObjectDb,
  capture: { tree: string; skipped: SkippedPath[] } | null,
  maxFileBytes: number,
): Promise<FastState | null> {
  const { repo } = git;
  const outside = ruleFiles(git);
  if (outside === null || git.hasFilterDrivers) return null;
  const rules = new Map(outside.map((f) => [f, stamp(f)]));
  for (const [f, s] of rules) if (f.endsWith('attributes') && s !== 'none') return null;
  const index = readIndexFile(repo.indexFile, repo.prefix, db.format === 'sha1' ? 20 : 32);
  if (!index || index.attributes) return null;
  const builder = new TreeBuilder(db);
  const files = new Map<string, SavedFile>();
  const trackedDirs = new Set<string>();
  for (const [p, e] of index.entries) {
    builder.set(p, e);
    files.set(p, { mode: e.mode, oid: e.oid, stat: changedAtNs(e.stat) < index.mtimeNs - RACY_NS ? e.stat : null });
    for (let i = p.lastIndexOf('/'); i !== -1; i = p.lastIndexOf('/', i - 1)) trackedDirs.add(p.slice(0, i));
  }
  // The index must hold exactly the captured tree, as this builder names it.
  if (capture && builder.tree(false) !== capture.tree) return null;
  const tree = capture ? capture.tree : builder.tree(true);
  const skipped = capture?.skipped ?? [];
  const skippedStats = new Map<string, StatKey | 'dir'>();
  for (const s of skipped) {
    if (s.reason === 'lfs' || s.reason === 'filter') return null;
    const found = lstatKey(path.join(repo.workspace, s.path));
    if (!found) return null;
    skippedStats.set(s.path, s.reason === 'nested_repository' ? 'dir' : found.key);
  }
  const state: FastState = {
    db,
    builder,
    tree,
    files,
    dirs: new Map(),
    ignored: new Map(),
    skipped,
    skippedStats,
    rules,
    maxFileBytes,
    config: git.configText,
    unsynced: new Map(),
  };
  // Folders with saved files are walked; any other name is asked about (ignored, or a folder to walk too).
  const queue = [''];
  for (let round = 0; queue.length > 0; round++) {
    if (round > 8) return null;
    const unknown: { rel: string; dir: boolean }[] = [];
    for (let folder = queue.pop(); folder !== undefined; folder = queue.pop()) {
      const found = readFolder(state, repo.workspace, folder);
      if (!found) return null;
      for (const entry of found) {
        if (files.has(entry.rel) || skippedStats.has(entry.rel)) continue;
        if (entry.dir && trackedDirs.has(entry.rel)) queue.push(entry.rel);
        else unknown.push(entry);
      }
    }
    const ignored = await ignoredAmong(
      git,
      unknown.map((u) => u.rel),
    );
    for (const u of unknown) {
      if (ignored.has(u.rel)) state.ignored.set(u.rel, u.dir);
      // A folder that is not ignored and holds no saved file: walked too. A file not saved: written since git
      // looked; its folder is looked into again at the next capture, which takes it.
      else if (u.dir) queue.push(u.rel);
      else state.dirs.set(parentOf(u.rel), null);
    }
  }
  return state;
}

export const parentOf = (rel: string) => {
  const i = rel.lastIndexOf('/');
  return i === -1 ? '' : rel.slice(0, i);
};

/** A folder's entries (`.git` left out), its stat noted first; `.gitignore` files become rules. Null if gone. */
export function readFolder(state: FastState, workspace: string, folder: string) {
  const abs = path.join(workspace, folder);
  const started = nowNs();
  const found = lstatKey(abs);
  if (!found?.st.isDirectory()) return null;
  const entries = fs.readdirSync(abs, { withFileTypes: true });
  state.dirs.set(folder, changedAtNs(found.key) < started - RACY_NS ? found.key : null);
  const out: { rel: string; dir: boolean; name: string }[] = [];
  for (const d of entries) {
    if (d.name === '.git') continue;
    const rel = folder === '' ? d.name : `${folder}/${d.name}`;
    if (d.name === '.gitignore' || d.name === '.gitattributes')
      state.rules.set(path.join(abs, d.name), stamp(path.join(abs, d.name)));
    out.push({ rel, dir: d.isDirectory(), name: d.name });
  }
  // A folder of ours with its own attributes or a .git: git keeps capturing.
  if (entries.some((d) => d.name === '.gitattributes' || (d.name === '.git' && folder !== ''))) return null;
  return out;
}

/** The paths git ignores among `paths` (workspace-relative; tracked paths never are). */
export async function ignoredAmong(git: StoreGit, paths: readonly string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const out = await git.run(['check-ignore', '-z', '--stdin'], {
    inWorkspace: true,
    input: `${paths.join('\0')}\0`,
    okCodes: [1],
  });
  return new Set(out.split('\0').filter((p) => p !== ''));
}

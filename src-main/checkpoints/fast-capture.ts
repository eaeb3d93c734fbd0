// A step's capture without a git process when it can be made in-process: the workspace compared against the last
// capture's stat data (fast-state.ts) — every saved file and every folder that is not ignored is stat-ed; a file whose
// stat changed (or is too recent to trust, git's racy-git rule) is hashed again, a folder whose stat changed is read
// again and a name not seen before is asked about (`git check-ignore`, the only process, and only then). Changed
// files are read and stored, and the trees on their paths written, by the object worker (object-writer.ts), off the
// main thread. Anything it does not handle itself (a new or removed folder, a changed .gitignore or config, a file
// grown too big, a file turned into a folder, …) gives it back to git (snapshot.ts), after which the state is built
// again.
import path from 'node:path';
import type { CheckpointFile } from '../../src-shared/checkpoints';
import {
  buildFastState,
  type FastState,
  ignoredAmong,
  lstatKey,
  nowNs,
  parentOf,
  readFolder,
  type SavedFile,
  stamp,
} from './fast-state';
import { sameStat } from './index-file';
import { objectWriter } from './object-writer';
import { changesOf } from './skipped';
import { type Captured, prepareIndex } from './snapshot';
import type { StoreGit } from './store-git';

/** Why a fast capture gave the work back to git: `rules` when what is ignored (or the config) may have changed. */
export type Fallback = { kind: 'git'; why: 'rules' | 'structure' };

const GIT: Fallback = { kind: 'git', why: 'structure' };
const RULE_NAMES = new Set(['.gitignore', '.gitattributes', '.git']);
const MAX_HASHED = 2048;

/** Brings `state` up to the workspace and writes what changed; the capture, or why git must make it. */
export async function fastCapture(git: StoreGit, state: FastState): Promise<Captured | Fallback> {
  const started = performance.now();
  const { workspace } = git.repo;
  await git.refreshFilterGuard();
  if (git.configText !== state.config) return { kind: 'git', why: 'rules' };
  for (const [file, was] of state.rules) if (stamp(file) !== was) return { kind: 'git', why: 'rules' };
  // Folders whose entries may have changed: the names not seen before.
  const fresh: { rel: string; dir: boolean; name: string }[] = [];
  for (const [folder, was] of [...state.dirs]) {
    const now = lstatKey(path.join(workspace, folder));
    if (!now?.st.isDirectory()) return GIT;
    if (was !== null && sameStat(was, now.key)) continue;
    const entries = readFolder(state, workspace, folder);
    if (!entries) return GIT;
    for (const e of entries) {
      const known = state.files.has(e.rel) || state.dirs.has(e.rel) || state.ignored.get(e.rel) === e.dir;
      if (!known && !state.skippedStats.has(e.rel)) fresh.push(e);
    }
  }
  if (fresh.some((e) => RULE_NAMES.has(e.name))) return { kind: 'git', why: 'rules' };
  const startedNs = nowNs();
  const changed = new Map<string, SavedFile | null>();
  /** Files to read and store: those whose stat changed (`saved`: what they held) and new ones. */
  const toStore: { rel: string; now: Seen; saved: SavedFile | null }[] = [];
  for (const [rel, saved] of state.files) {
    const abs = path.join(workspace, rel);
    const now = lstatKey(abs);
    if (now === null) {
      changed.set(rel, null);
      continue;
    }
    if (!now.st.isFile() && !now.st.isSymbolicLink()) return GIT;
    if (saved.stat !== null && sameStat(saved.stat, now.key)) continue;
    // Many files to hash (a stale stat cache, a command that rewrote a tree): git's capture also refreshes the index.
    if (toStore.length >= MAX_HASHED) return GIT;
    toStore.push({ rel, now, saved });
  }
  for (const [rel, was] of state.skippedStats) {
    const now = lstatKey(path.join(workspace, rel));
    if (!now || (was === 'dir' ? !now.st.isDirectory() : !sameStat(was, now.key))) return GIT;
  }
  if (fresh.length > 0) {
    const ignored = await ignoredAmong(
      git,
      fresh.map((f) => f.rel),
    );
    for (const f of fresh) {
      if (ignored.has(f.rel)) {
        state.ignored.set(f.rel, f.dir);
        continue;
      }
      if (f.dir) return GIT; // a new folder: git looks into it
      const now = lstatKey(path.join(workspace, f.rel));
      if (!now || (!now.st.isFile() && !now.st.isSymbolicLink())) return GIT;
      toStore.push({ rel: f.rel, now, saved: null });
    }
  }
  // Too big: git decides (and lists it as skipped).
  if (toStore.some((f) => f.now.st.isFile() && f.now.st.size > BigInt(state.maxFileBytes))) return GIT;
  const stored = await objectWriter().run({
    op: 'blobs',
    db: state.db,
    files: toStore.map((f) => ({ abs: path.join(workspace, f.rel), key: f.now.key })),
    startedNs,
  });
  for (const [i, f] of toStore.entries()) {
    const blob = stored[i];
    if (!blob) return GIT; // unreadable, or gone meanwhile
    const taken: SavedFile = { mode: f.now.key.mode, oid: blob.oid, stat: blob.stat };
    if (f.saved && taken.oid === f.saved.oid && taken.mode === f.saved.mode) f.saved.stat = taken.stat;
    else changed.set(f.rel, taken);
  }
  if ([...changed.keys()].some((rel) => RULE_NAMES.has(path.posix.basename(rel)))) {
    return { kind: 'git', why: 'rules' };
  }
  return commit(state, changed, started);
}

type Seen = NonNullable<ReturnType<typeof lstatKey>>;

/** Applies the changes to the state and its tree: the capture. */
async function commit(state: FastState, changed: Map<string, SavedFile | null>, started: number): Promise<Captured> {
  const base = state.tree;
  const added: string[] = [];
  const removed: string[] = [];
  for (const [rel, file] of changed) {
    if (file === null) {
      state.files.delete(rel);
      removed.push(rel);
      // Its folder is read again next time: a file of that name may come back.
      state.dirs.set(parentOf(rel), null);
    } else {
      if (!state.files.has(rel)) added.push(rel);
      state.files.set(rel, file);
    }
    state.builder.set(rel, file);
    state.unsynced.set(rel, file);
  }
  state.tree = changed.size === 0 ? base : state.builder.tree(true);
  await objectWriter().run({ op: 'objects', db: state.db, objects: state.builder.drain() });
  const updated = [...changed].filter(([, f]) => f !== null).map(([rel]) => rel);
  const changes: CheckpointFile[] | null = changesOf(updated, removed, new Set(added));
  return { tree: state.tree, skipped: state.skipped, started, base, changes };
}

/**
 * A task's captures: fast while the state holds, else git's (`slow`), after which the state is built again (in the
 * background: the next capture waits for it).
 */
export class FastCaptures {
  private state: FastState | null = null;
  private building: Promise<FastState | null> | null = null;
  /** How many captures each way (what the tests and the bench look at). */
  readonly made = { fast: 0, git: 0 };

  /** Whether the task's first capture was tried from the index it starts with. */
  private opened = false;

  constructor(
    private readonly git: StoreGit,
    private readonly options: { maxFileBytes: number; personIndex: string | null },
  ) {}

  async capture(slow: () => Promise<Captured>): Promise<Captured> {
    const state = this.state ?? (await this.building) ?? (await this.fromIndex());
    this.state = null;
    this.building = null;
    if (state) {
      // Any failure here (a check-ignore that failed, a file that vanished midway) is git's to look at.
      const fast = await fastCapture(this.git, state).catch((): Fallback => GIT);
      if ('tree' in fast) {
        this.state = state;
        this.made.fast++;
        return fast;
      }
      if (fast.why === 'rules') await this.git.refreshFilterGuard(performance.now(), true);
      await syncIndex(this.git, state);
    }
    const captured = await slow();
    this.made.git++;
    const db = await this.git.objectDb();
    // Built once this capture is handed back (its walk is no part of what the step waits for).
    if (db) {
      this.building = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => buildFastState(this.git, db, captured, this.options.maxFileBytes))
        .catch(() => null);
    }
    return captured;
  }

  /**
   * The first capture of a store, from the task's index as it is (the person's copied, or the one an earlier run
   * left): its stat data spare git's refresh, look and tree, as they spare later captures.
   */
  private async fromIndex(): Promise<FastState | null> {
    if (this.opened) return null;
    this.opened = true;
    await prepareIndex(this.git.repo.indexFile, this.options.personIndex);
    const [db] = await Promise.all([this.git.objectDb(), this.git.refreshFilterGuard()]);
    if (!db) return null;
    // The index's trees are written before the state is used: a capture's tree names them.
    return buildFastState(this.git, db, null, this.options.maxFileBytes)
      .then(async (state) => {
        if (state) await objectWriter().run({ op: 'objects', db, objects: state.builder.drain() });
        return state;
      })
      .catch(() => null);
  }
}

/**
 * The task's index brought up to the last fast capture (entries without stat data, which git then compares by
 * content): git's capture starts from what was captured last, so a file it leaves out keeps its last saved copy.
 */
async function syncIndex(git: StoreGit, state: FastState): Promise<void> {
  if (state.unsynced.size === 0) return;
  const none = '0'.repeat(state.db.format === 'sha1' ? 40 : 64);
  const lines = [...state.unsynced].map(([rel, file]) =>
    file === null
      ? `0 ${none}\t${git.repo.prefix}${rel}`
      : `${file.mode.toString(8)} ${file.oid}\t${git.repo.prefix}${rel}`,
  );
  await git.run(['update-index', '-z', '--index-info'], { input: `${lines.join('\0')}\0` });
}

// The snapshot store of a task's workspace (types.ts): found by locate.ts, made of git objects written through the
// task's own index; one operation at a time per store, so the task's index lock is only ever this store's.
import fs from 'node:fs';
import path from 'node:path';
import { runHostGit } from '../workspace/host-git';
import { FastCaptures } from './fast-capture';
import { fileDiff } from './file-diff';
import { type Located, locateStore, taskIndexFile } from './locate';
import { restoreSnapshot } from './restore';
import { type Captured, captureTree, maestroRef, sealSnapshot } from './snapshot';
import { StoreGit } from './store-git';
import { diffTrees, toCheckpointFiles } from './tree-diff';
import type { NoStore, OpenSnapshotStore, SnapshotStore, SnapshotStoreOptions } from './types';

export const openSnapshotStore: OpenSnapshotStore = async (options) => {
  const located = await locateStore(options.workspacePath, options.dataDir);
  if (located.kind === 'off') return located;
  try {
    if (located.kind === 'plain') await initPrivateRepo(located.gitDir, located.workspace);
  } catch (e) {
    return { kind: 'off', reason: 'unusable', note: `Checkpoints are off: ${(e as Error).message}` } satisfies NoStore;
  }
  return new GitSnapshotStore(located, options);
};

async function initPrivateRepo(gitDir: string, workspace: string): Promise<void> {
  if (fs.existsSync(path.join(gitDir, 'HEAD'))) return;
  fs.mkdirSync(path.dirname(gitDir), { recursive: true });
  const r = await runHostGit(['init', '--bare', '--quiet', '--template=', gitDir], { cwd: path.dirname(gitDir) });
  if (r.code !== 0) throw new Error(`cannot create the private repository ${gitDir}: ${r.stderr.trim()}`);
  // Which folder it snapshots, for a person looking in the data dir.
  fs.writeFileSync(path.join(gitDir, 'description'), `MAESTRO checkpoints of ${workspace}\n`);
}

/**
 * A private repository's latest task index (by git dir): a new task of the folder starts from it as a task in a
 * repository starts from the person's index — its stat data spare the first capture git's look at every file.
 */
const latestIndex = new Map<string, string>();

export class GitSnapshotStore implements SnapshotStore {
  readonly kind: 'git' | 'plain';
  private readonly git: StoreGit;
  /** Captures made in-process while they can be (fast-capture.ts), by git otherwise. */
  private readonly captures: FastCaptures;
  private queue: Promise<unknown> = Promise.resolve();
  private sealQueue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly located: Located,
    private readonly options: SnapshotStoreOptions,
  ) {
    this.kind = located.kind;
    this.git = new StoreGit({
      gitDir: located.gitDir,
      workTree: located.workTree,
      workspace: located.workspace,
      prefix: located.prefix,
      indexFile: taskIndexFile(options.dataDir, options.taskId),
      commonDir: located.commonDir,
      objects: located.objects,
    });
    if (located.config !== null) this.git.sawConfig(located.config);
    this.startIndex = located.kind === 'plain' ? (latestIndex.get(located.gitDir) ?? null) : located.personIndex;
    this.captures = new FastCaptures(this.git, { maxFileBytes: options.maxFileBytes, personIndex: this.startIndex });
  }

  /** The index the task's own starts as a copy of (none: empty). */
  private readonly startIndex: string | null;

  /** Runs `op` after the store's previous operation settled. */
  private serial<T>(op: () => Promise<T>): Promise<T> {
    const next = this.queue.then(op, op);
    this.queue = next.catch(() => {});
    return next;
  }

  snapshot(ref: string, previous: string | null) {
    return this.serial(async () => sealSnapshot(this.git, await this.captureNow(), { ref, previous }));
  }

  capture() {
    return this.serial(() => this.captureNow());
  }

  /** How many captures were made in-process and how many by git. */
  get captureCounts(): Readonly<{ fast: number; git: number }> {
    return this.captures.made;
  }

  private async captureNow(): Promise<Captured> {
    const captured = await this.captures.capture(() =>
      captureTree(this.git, { maxFileBytes: this.options.maxFileBytes, personIndex: this.startIndex }),
    );
    if (this.kind === 'plain') latestIndex.set(this.located.gitDir, this.git.repo.indexFile);
    return captured;
  }

  seal(captured: Captured, ref: string, previous: string | null) {
    // A seal reads objects and writes a commit, never the index: it runs beside the next capture. Its ref is written
    // by keepRefs (unreferenced objects this young are never pruned: git's gc keeps them two weeks, and the private
    // repositories are collected only while no job runs).
    // A task's first checkpoint lists no files (nothing changed before it): no process lists them all.
    const next = this.sealQueue.then(() =>
      sealSnapshot(this.git, captured, { ref, previous, writeRef: false, listFirst: false }),
    );
    this.sealQueue = next.catch(() => {});
    return next;
  }

  async changes(from: string, to: string) {
    return toCheckpointFiles(await diffTrees(this.git, from, to, { renames: true }));
  }

  fileDiff(from: string, to: string, file: string) {
    return fileDiff(this.git, from, to, file);
  }

  restore(target: string, current: string, paths?: readonly string[]) {
    return this.serial(() => restoreSnapshot(this.git, target, current, paths));
  }

  async keepRefs(refs: readonly { ref: string; commit: string }[]) {
    await this.git.keepRefs(refs.map((r) => ({ ref: maestroRef(r.ref), commit: r.commit })));
  }

  async dropRefs(refs: readonly string[]) {
    if (refs.length === 0) return;
    const input = refs.map((r) => `delete ${maestroRef(r)}\n`).join('');
    await this.git.run(['update-ref', '--stdin'], { input });
  }

  async listRefs(prefix: string): Promise<{ ref: string; commit: string }[]> {
    // A folder of refs, checked as a ref name (no glob characters reach for-each-ref's pattern).
    const folder = prefix.replace(/^refs\/maestro\//, '').replace(/\/$/, '');
    const pattern = folder === '' ? 'refs/maestro/' : `${maestroRef(folder)}/`;
    const out = await this.git.run(['for-each-ref', '--format=%(objectname) %(refname)', pattern]);
    return out
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => ({ commit: l.slice(0, l.indexOf(' ')), ref: l.slice(l.indexOf(' ') + 1) }));
  }
}

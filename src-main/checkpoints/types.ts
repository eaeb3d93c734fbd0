// The interface of a workspace's snapshot store (git-store.ts builds it): what the checkpoint service
// (checkpoints/service.ts) asks of git. Trees and commits are full hex object names; paths are workspace-relative,
// `/`-separated.
import type { CheckpointFile, SkippedPath } from '../../src-shared/checkpoints';
import type { Captured } from './snapshot';

export type { Captured };

export interface Snapshot {
  /** The commit of this snapshot (its tree is the workspace; its parent the previous snapshot given, if any). */
  commit: string;
  tree: string;
  /** What changed since `previous` (every file of the snapshot when there was none). */
  files: CheckpointFile[];
  /** What was left out (big files, LFS or filtered files, nested repositories, unreadable files). */
  skipped: SkippedPath[];
  /** How long the snapshot took (ms). */
  ms: number;
}

export interface RestoreResult {
  /** Files written back (created or overwritten), sorted. */
  restored: string[];
  /** Files removed (created after the target), sorted. */
  removed: string[];
}

export interface SnapshotStore {
  /** `git`: the workspace's own repository (objects there, refs under refs/maestro/); `plain`: a private one. */
  readonly kind: 'git' | 'plain';
  /**
   * Snapshots the workspace as it is now, under `ref` (a name below refs/maestro/, e.g. `tasks/<taskId>/<id>`), with
   * `previous` (a snapshot commit) as parent. Never touches the person's HEAD, index, branches, stash, hooks or
   * config; runs no hook, filter, fsmonitor or pager.
   */
  snapshot(ref: string, previous: string | null): Promise<Snapshot>;
  /**
   * snapshot() in two parts: capture() writes the workspace's tree (what must happen before a step changes files),
   * seal() makes it the snapshot under `ref` afterwards (commit, ref, changes) while the step runs.
   */
  capture(): Promise<Captured>;
  /**
   * Writes no ref: keepRefs() writes the refs of several seals in one go. Without `previous` (a task's first
   * checkpoint, where its changes are counted from) it lists no files.
   */
  seal(captured: Captured, ref: string, previous: string | null): Promise<Snapshot>;
  /** Points each ref (below refs/maestro/) at its snapshot commit. */
  keepRefs(refs: readonly { ref: string; commit: string }[]): Promise<void>;
  /** What changed from one snapshot (commit or tree) to another. */
  changes(from: string, to: string): Promise<CheckpointFile[]>;
  /** A unified diff of one path between two snapshots, and whether the file is binary. */
  fileDiff(
    from: string,
    to: string,
    path: string,
  ): Promise<{ diff: string; binary: boolean; added: number; removed: number }>;
  /**
   * Makes the workspace's files equal to `target` where `current` (a snapshot just taken) differs from it: writes the
   * target's version of changed and deleted files (atomically, keeping the mode), removes files the target lacks.
   * `paths`: only these (a file revert). Skipped paths of either snapshot are never touched. Reads every blob it
   * will write before writing any, so a failure (naming the file) stops it before anything changed; a crash midway
   * leaves a state from which the same call completes.
   */
  restore(target: string, current: string, paths?: readonly string[]): Promise<RestoreResult>;
  /** Removes the refs (full names below refs/maestro/); their objects go at the next gc. */
  dropRefs(refs: readonly string[]): Promise<void>;
  /** The refs below refs/maestro/<prefix> (e.g. `tasks/<taskId>/`) with their commits, sorted by name. */
  listRefs(prefix: string): Promise<{ ref: string; commit: string }[]>;
}

/** Why a workspace has no snapshot store: shown once in the task. */
export type NoStore = { kind: 'off'; reason: 'no_git' | 'home_or_root' | 'disabled' | 'unusable'; note: string };

export interface SnapshotStoreOptions {
  workspacePath: string;
  /** The app's data dir: per-task temporary indexes and plain folders' private repositories live below it. */
  dataDir: string;
  taskId: string;
  /** Files bigger than this are skipped (SkippedPath `too_big`). */
  maxFileBytes: number;
}

/** Opens (creating when needed) the snapshot store of a task's workspace; `off` with the reason when there is none. */
export type OpenSnapshotStore = (options: SnapshotStoreOptions) => Promise<SnapshotStore | NoStore>;

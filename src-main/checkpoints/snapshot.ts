// One snapshot: the task's index brought up to the workspace, written as a tree and a commit whose parent is the
// previous snapshot, under refs/maestro/<ref>. The work tree is looked at once (`ls-files -o -m`, scanChanges); only
// the paths it names are hashed (`update-index --stdin`; `add -A` when there are many), what is skipped left out. The task's index persists, so
// git's stat cache spares unchanged files; in a git workspace it starts as a copy of the person's index (never
// written), which spares even the first snapshot from hashing every tracked file. Processes are what a step waits
// for: a look that finds nothing changed writes no tree, the commit is written by the host (store-git.ts), and when
// the index held the previous snapshot's tree the look itself says what changed (no diff).
import fs from 'node:fs';
import path from 'node:path';
import type { CheckpointFile, SkippedPath } from '../../src-shared/checkpoints';
import { scanChanges } from './skipped';
import type { StoreGit } from './store-git';
import { diffTrees, toCheckpointFiles } from './tree-diff';
import type { Snapshot } from './types';

/** The empty tree's name: git knows it without it being stored. */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
/** Past this many files to hash, one `git add -A` beats `update-index` with the list. */
const BULK = 256;
const SKIPPED_TRAILER = 'MAESTRO-Skipped: ';
const REF = /^(?!.*\.\.)(?!.*\/\/)(?!.*\.lock(\/|$))[A-Za-z0-9_][A-Za-z0-9._/-]*(?<![/.])$/;

/** The full name of a snapshot ref; `ref` is below refs/maestro/ (given with or without that prefix). */
export function maestroRef(ref: string): string {
  const below = ref.startsWith('refs/maestro/') ? ref.slice('refs/maestro/'.length) : ref;
  if (!REF.test(below))
    throw new Error(`checkpoints: ${JSON.stringify(ref)} is not a valid ref name below refs/maestro/`);
  return `refs/maestro/${below}`;
}

/**
 * Starts the task's index when it has none (a copy of the person's in a git workspace), clears a killed run's lock;
 * whether the index is a fresh copy.
 */
export async function prepareIndex(indexFile: string, personIndex: string | null): Promise<boolean> {
  await fs.promises.mkdir(path.dirname(indexFile), { recursive: true });
  // Only this task's snapshots take this lock, one at a time: a lock left here is from a git killed midway.
  await fs.promises.rm(`${indexFile}.lock`, { force: true });
  if (fs.existsSync(indexFile) || personIndex === null) return false;
  try {
    await fs.promises.copyFile(personIndex, indexFile);
    return true;
  } catch (e) {
    // A repository without commits has no index yet: the task's index starts empty.
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    return false;
  }
}

/** The workspace as a tree, written through the task's index: all a checkpoint needs before the step goes on. */
export interface Captured {
  tree: string;
  skipped: SkippedPath[];
  /** When the capture began (performance.now()): a snapshot's `ms` counts from it. */
  started: number;
  /** The tree the task's index held before (when this store wrote it), and what the capture changed in it. */
  base?: string | null;
  changes?: CheckpointFile[] | null;
}

/** The workspace hashed into the task's index (its files are safe from a step from then on), its tree not yet written. */
export interface Staged {
  started: number;
  skipped: SkippedPath[];
  base: string | null;
  changes: CheckpointFile[] | null;
  /** Whether the index changed (else its tree is `base`). */
  wrote: boolean;
}

/**
 * Brings the task's index up to the workspace and writes its tree (the part that must happen before a step changes
 * anything); sealSnapshot makes it a snapshot afterwards, while the step runs.
 */
export async function captureTree(
  git: StoreGit,
  options: { maxFileBytes: number; personIndex: string | null },
): Promise<Captured> {
  return treeOf(git, await stageWorkspace(git, options));
}

/**
 * Brings the task's index up to the workspace: every file's content is then in the repository's objects, so a step
 * may change files; only the tree is left to write (treeOf), which reads the index alone.
 */
export async function stageWorkspace(
  git: StoreGit,
  options: { maxFileBytes: number; personIndex: string | null },
): Promise<Staged> {
  const started = performance.now();
  const { repo } = git;
  const copied = await prepareIndex(repo.indexFile, options.personIndex);
  const base = git.indexTree();
  void git.objectDb();
  await git.refreshFilterGuard();
  if (copied) {
    // The person's stat cache may be stale (files touched since): refreshed once, so that later snapshots do not
    // compare those files' contents again each time. Exit 1 says some files changed: that is what comes next.
    await git.run(['update-index', '-q', '--refresh', '--ignore-submodules'], { inWorkspace: true, okCodes: [1] });
  }
  const { update, gone, skipped, changes } = await scanChanges(git, repo.workspace, options.maxFileBytes);
  // Nothing to hash or remove: the index, so its tree, is as this store last wrote it.
  if (base !== null && update.length === 0 && gone.length === 0) {
    return { started, skipped, base, changes, wrote: false };
  }
  if (gone.length > 0) await updateIndex(git, '--force-remove', gone);
  if (update.length > BULK) {
    // Many new files (a first snapshot of a folder): `add -A` hashes them well over twice as fast as update-index,
    // for a second look at the work tree.
    const pathspecs = ['.', ...skipped.map((s) => `:(exclude,literal)${s.path}`)];
    await git.run(['add', '-A', '--pathspec-from-file=-', '--pathspec-file-nul'], {
      inWorkspace: true,
      input: `${pathspecs.join('\0')}\0`,
    });
  } else if (update.length > 0) {
    await updateIndex(git, '--add', update);
  }
  return { started, skipped, base, changes: update.length > BULK ? null : changes, wrote: true };
}

/** The staged index's tree: the capture that a seal makes a snapshot. */
export async function treeOf(git: StoreGit, staged: Staged): Promise<Captured> {
  const { started, skipped, base, changes } = staged;
  if (!staged.wrote && base !== null) return { tree: base, skipped, started, base, changes };
  const tree = await writeTree(git);
  git.wroteTree(tree);
  return { tree, skipped, started, base, changes };
}

/**
 * A captured tree as a snapshot: a commit whose parent is `previous`, under refs/maestro/<ref> (`writeRef: false`:
 * the caller writes it later, with others, in one process), with its changes (`listFirst: false`: none listed
 * without a previous snapshot).
 */
export async function sealSnapshot(
  git: StoreGit,
  { tree, skipped, started, base, changes }: Captured,
  options: { ref: string; previous: string | null; writeRef?: boolean; listFirst?: boolean },
): Promise<Snapshot> {
  const ref = maestroRef(options.ref);
  const message = `MAESTRO checkpoint ${ref}\n\n${SKIPPED_TRAILER}${JSON.stringify(skipped)}\n`;
  const { previous } = options;
  const commit = await git.commit(tree, previous, message);
  // The capture's own changes hold when it started from the previous snapshot's tree.
  const known = previous && changes && base && git.treeOf(previous) === base ? changes : null;
  const [, files] = await Promise.all([
    options.writeRef === false ? null : git.run(['update-ref', ref, commit]),
    known ??
      (previous
        ? diffTrees(git, previous, commit, { renames: true }).then(toCheckpointFiles)
        : options.listFirst === false
          ? []
          : allFiles(git, tree)),
  ]);
  return { commit, tree, files, skipped, ms: Math.round(performance.now() - started) };
}

function updateIndex(git: StoreGit, mode: '--add' | '--force-remove', paths: readonly string[]) {
  return git.run(['update-index', mode, '--remove', '--replace', '-z', '--stdin'], {
    inWorkspace: true,
    input: `${paths.join('\0')}\0`,
  });
}

async function writeTree(git: StoreGit): Promise<string> {
  const { prefix } = git.repo;
  if (prefix === '') return (await git.run(['write-tree'])).trim();
  try {
    return (await git.run(['write-tree', `--prefix=${prefix}`])).trim();
  } catch (e) {
    // No file below the workspace's folder in the index: an empty workspace.
    if (/not found/.test((e as Error).message)) return EMPTY_TREE;
    throw e;
  }
}

async function allFiles(git: StoreGit, tree: string): Promise<CheckpointFile[]> {
  const out = await git.run(['ls-tree', '-r', '-z', '--full-tree', tree]);
  return out
    .split('\0')
    .filter((l) => l !== '' && !l.startsWith('160000 '))
    .map((l) => ({ path: l.slice(l.indexOf('\t') + 1), change: 'added' as const }));
}

/** The skipped paths a snapshot commit's message lists (none for a tree or an older message). */
export function skippedOf(commitText: string): SkippedPath[] {
  const line = commitText.split('\n').find((l) => l.startsWith(SKIPPED_TRAILER));
  if (!line) return [];
  return JSON.parse(line.slice(SKIPPED_TRAILER.length)) as SkippedPath[];
}

// One snapshot: the task's index brought up to the workspace, written as a tree and a commit whose parent is the
// previous snapshot, under refs/maestro/<ref>. The work tree is looked at once (`ls-files -o -m`, scanChanges); only
// the paths it names are hashed (`update-index --stdin`), what is skipped left out. The task's index persists, so
// git's stat cache spares unchanged files; in a git workspace it starts as a copy of the person's index (never
// written), which spares even the first snapshot from hashing every tracked file.
import fs from 'node:fs';
import path from 'node:path';
import type { CheckpointFile, SkippedPath } from '../../src-shared/checkpoints';
import { scanChanges } from './skipped';
import type { StoreGit } from './store-git';
import { diffTrees, toCheckpointFiles } from './tree-diff';
import type { Snapshot } from './types';

/** The empty tree's name: git knows it without it being stored. */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
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
export function prepareIndex(indexFile: string, personIndex: string | null): boolean {
  fs.mkdirSync(path.dirname(indexFile), { recursive: true });
  // Only this task's snapshots take this lock, one at a time: a lock left here is from a git killed midway.
  fs.rmSync(`${indexFile}.lock`, { force: true });
  if (fs.existsSync(indexFile) || personIndex === null) return false;
  try {
    fs.copyFileSync(personIndex, indexFile);
    return true;
  } catch (e) {
    // A repository without commits has no index yet: the task's index starts empty.
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    return false;
  }
}

export async function takeSnapshot(
  git: StoreGit,
  options: { ref: string; previous: string | null; maxFileBytes: number; personIndex: string | null },
): Promise<Snapshot> {
  const started = performance.now();
  const ref = maestroRef(options.ref);
  const { repo } = git;
  const copied = prepareIndex(repo.indexFile, options.personIndex);
  await git.refreshFilterGuard();
  if (copied) {
    // The person's stat cache may be stale (files touched since): refreshed once, so that later snapshots do not
    // compare those files' contents again each time. Exit 1 says some files changed: that is what comes next.
    await git.run(['update-index', '-q', '--refresh', '--ignore-submodules'], { inWorkspace: true, okCodes: [1] });
  }
  const { update, gone, skipped } = await scanChanges(git, repo.workspace, options.maxFileBytes);
  for (const [mode, paths] of [
    ['--force-remove', gone],
    ['--add', update],
  ] as const) {
    if (paths.length === 0) continue;
    await git.run(['update-index', mode, '--remove', '--replace', '-z', '--stdin'], {
      inWorkspace: true,
      input: `${paths.join('\0')}\0`,
    });
  }
  const tree = await writeTree(git);
  const message = `MAESTRO checkpoint ${ref}\n\n${SKIPPED_TRAILER}${JSON.stringify(skipped)}\n`;
  const parent = options.previous ? ['-p', options.previous] : [];
  const commit = (
    await git.run(['commit-tree', '--no-gpg-sign', ...parent, '-F', '-', tree], { input: message })
  ).trim();
  const [, files] = await Promise.all([
    git.run(['update-ref', ref, commit]),
    options.previous
      ? diffTrees(git, options.previous, commit, { renames: true }).then(toCheckpointFiles)
      : allFiles(git, tree),
  ]);
  return { commit, tree, files, skipped, ms: Math.round(performance.now() - started) };
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

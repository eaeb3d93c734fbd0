// What the workspace commit (P2.21) reads of the person's repository before writing anything: where the repository
// is, the branch checked out, an operation in progress, signing, the person's identity, and tree diffs. Read only.
import fs from 'node:fs';
import path from 'node:path';
import { runHostGit } from '../workspace/host-git';

/** A `git` run in the repository (cwd the top level); `home` is the person's, so their global config is read. */
export interface Repo {
  top: string;
  /** The workspace folder below the top level, `/`-terminated ('' when the workspace is the top level). */
  prefix: string;
  home: string | undefined;
}

export class GitFailed extends Error {
  constructor(args: readonly string[], stderr: string) {
    const first =
      stderr
        .trim()
        .split('\n')
        .find((line) => line.trim()) ?? 'no message';
    super(`git ${args[0]} failed: ${first.replace(/^(fatal|error): /, '')}`);
    this.name = new.target.name;
  }
}

/** `git <args>` in the repository; its stdout, or GitFailed with git's own first line. */
export async function git(
  repo: Repo,
  args: readonly string[],
  extra: { env?: Record<string, string>; input?: string } = {},
): Promise<string> {
  const r = await runHostGit(args, { cwd: repo.top, home: repo.home, ...extra });
  if (r.code !== 0) throw new GitFailed(args, r.stderr);
  return r.stdout;
}

/** The repository the workspace is in, or why there is none ('none': not a repository; else git's message). */
export async function locateRepo(workspacePath: string, home: string | undefined): Promise<Repo | { none: string }> {
  if (!fs.existsSync(workspacePath)) return { none: `the folder ${workspacePath} does not exist` };
  const r = await runHostGit(['rev-parse', '--show-toplevel', '--show-prefix'], { cwd: workspacePath, home });
  if (r.code !== 0) {
    return /not a git repository/i.test(r.stderr)
      ? { none: 'none' }
      : { none: new GitFailed(['rev-parse'], r.stderr).message };
  }
  const [top = '', prefix = ''] = r.stdout.split('\n');
  if (!top) return { none: 'none' };
  return { top, prefix, home };
}

/** The branch HEAD points at (its short name), or null when HEAD is detached. */
export async function currentBranch(repo: Repo): Promise<string | null> {
  const r = await runHostGit(['symbolic-ref', '-q', 'HEAD'], { cwd: repo.top, home: repo.home });
  const ref = r.stdout.trim();
  return r.code === 0 && ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null;
}

/** The object a revision names, or null when there is none (an unborn branch's HEAD, a path not in a tree). */
export async function resolve(repo: Repo, rev: string): Promise<string | null> {
  const r = await runHostGit(['rev-parse', '-q', '--verify', rev], { cwd: repo.top, home: repo.home });
  return r.code === 0 ? r.stdout.trim() : null;
}

/** The empty tree's name in this repository's hash (git knows the object without it being written). */
export async function emptyTree(repo: Repo): Promise<string> {
  return (await git(repo, ['hash-object', '-t', 'tree', '--stdin'], { input: '' })).trim();
}

/** The state files git leaves while an operation waits for the person, and what to call each. */
const OPERATIONS: ReadonlyArray<readonly [string, string]> = [
  ['MERGE_HEAD', 'a merge'],
  ['rebase-merge', 'a rebase'],
  ['rebase-apply', 'a rebase (or `git am`)'],
  ['CHERRY_PICK_HEAD', 'a cherry-pick'],
  ['REVERT_HEAD', 'a revert'],
  ['sequencer', 'a cherry-pick or revert of several commits'],
  ['BISECT_LOG', 'a bisect'],
];

/**
 * The operation in progress (a merge, rebase, cherry-pick, revert, bisect, or another git command holding the
 * index), or null. `--git-path` finds each file where this worktree keeps it.
 */
export async function operationInProgress(repo: Repo): Promise<string | null> {
  const names = [...OPERATIONS.map(([file]) => file), 'index.lock'];
  const paths = (await git(repo, ['rev-parse', ...names.flatMap((n) => ['--git-path', n])])).split('\n');
  for (const [i, [, what]] of OPERATIONS.entries()) {
    if (fs.existsSync(path.resolve(repo.top, paths[i] ?? ''))) return what;
  }
  const lock = paths[OPERATIONS.length];
  return lock && fs.existsSync(path.resolve(repo.top, lock)) ? 'another git command (the index is locked)' : null;
}

/** Whether the person's config asks for signed commits (we never sign for them). */
export async function signingRequired(repo: Repo): Promise<boolean> {
  const r = await runHostGit(['config', '--type=bool', '--get', 'commit.gpgSign'], { cwd: repo.top, home: repo.home });
  return r.code === 0 && r.stdout.trim() === 'true';
}

/** `-c` that makes git refuse to invent an identity from the host and user names. */
export const CONFIGURED_IDENTITY_ONLY = ['-c', 'user.useConfigOnly=true'] as const;

/** Whether the person configured who they are (user.name and user.email, or author.* and committer.*, here or globally). */
export async function hasIdentity(repo: Repo): Promise<boolean> {
  const runs = ['GIT_AUTHOR_IDENT', 'GIT_COMMITTER_IDENT'].map((ident) =>
    runHostGit([...CONFIGURED_IDENTITY_ONLY, 'var', ident], { cwd: repo.top, home: repo.home }),
  );
  return (await Promise.all(runs)).every((r) => r.code === 0);
}

/** One path's entry on both sides of a diff (mode '000000' and a zero id: absent on that side). */
export interface TreeChange {
  path: string;
  oldMode: string;
  oldId: string;
  newMode: string;
  newId: string;
}

/** Parses `diff-tree`/`diff-index` `-r -z` raw output (`:mode mode id id status\0path\0…`). */
export function parseRawDiff(out: string): TreeChange[] {
  const parts = out.split('\0');
  const changes: TreeChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const [oldMode = '', newMode = '', oldId = '', newId = ''] = (parts[i] ?? '').replace(/^:/, '').split(' ');
    changes.push({ path: parts[i + 1] ?? '', oldMode, oldId, newMode, newId });
  }
  return changes;
}

/** Every path whose entry differs between two trees (renames as a removal and an addition), sorted. */
export async function treeChanges(repo: Repo, from: string, to: string): Promise<TreeChange[]> {
  return parseRawDiff(await git(repo, ['diff-tree', '-r', '-z', '--no-renames', from, to]));
}

/** Every path whose entry in the person's index differs from `tree` (staged changes, unmerged paths). */
export async function stagedChanges(repo: Repo, tree: string): Promise<TreeChange[]> {
  return parseRawDiff(await git(repo, ['diff-index', '--cached', '-r', '-z', '--no-renames', tree]));
}

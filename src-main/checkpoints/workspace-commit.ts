// The workspace commit a succeeded job makes when its workspace is in a git repository (P2.21): exactly the files
// the job changed (between its first checkpoint and a snapshot taken when it succeeded), with those contents, on the
// current branch, as the person (their identity), without hooks, signing or touching the working tree; or, when that
// cannot be done cleanly, nothing at all and the reason in words.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { describeIssues } from '../../src-shared/issues';
import { runHostGit } from '../workspace/host-git';
import { jobCommitMessage } from './commit-message';
import {
  CONFIGURED_IDENTITY_ONLY,
  currentBranch,
  emptyTree,
  git,
  hasIdentity,
  locateRepo,
  operationInProgress,
  type Repo,
  resolve,
  signingRequired,
  stagedChanges,
  type TreeChange,
  treeChanges,
} from './workspace-repo';

export const SKIP_REASONS = [
  'not_a_repository',
  'nothing_changed',
  'detached_head',
  'operation_in_progress',
  'signing_required',
  'own_changes',
  'no_identity',
  'head_moved',
  'failed',
] as const;
export type CommitSkipReason = (typeof SKIP_REASONS)[number];

export type WorkspaceCommitResult =
  | { kind: 'committed'; hash: string; short: string; branch: string; files: string[] }
  | { kind: 'skipped'; reason: CommitSkipReason; detail: string };
type Skipped = Extract<WorkspaceCommitResult, { kind: 'skipped' }>;

const ObjectName = z.string().regex(/^([0-9a-f]{40}|[0-9a-f]{64})$/, 'must be a full hex object name');
export const WorkspaceCommitInput = z.strictObject({
  workspacePath: z.string().refine((p) => path.isAbsolute(p), 'must be an absolute path'),
  /** The tree (or commit) of the job's first checkpoint, taken at its Send's start. */
  startTree: ObjectName,
  /** The tree (or commit) of a snapshot taken when the job succeeded. */
  endTree: ObjectName,
  title: z.string(),
  result: z.string().nullable(),
  taskId: z.string().min(1),
  jobId: z.string().min(1),
  /**
   * Workspace paths (files or folders) the snapshots left out (too big, LFS, nested repositories): never committed,
   * since a file that crossed the size limit between the two snapshots would otherwise look deleted.
   */
  leftOut: z.array(z.string()).default([]),
  /** The person's home (their global git config); the host's home when absent. */
  home: z.string().optional(),
});
export type WorkspaceCommitInput = z.input<typeof WorkspaceCommitInput>;

/** A commit object written and ready to become the branch's tip (nothing the person sees has changed yet). */
export interface JobCommitPlan {
  kind: 'planned';
  repo: Repo;
  branch: string;
  /** The branch's commit the new one sits on (null: an unborn branch, the repository's first commit). */
  parent: string | null;
  parentTree: string;
  commit: string;
  subject: string;
  /** Workspace-relative paths, sorted. */
  files: string[];
  /** The same paths in the repository. */
  repoPaths: string[];
  /** `update-index -z --index-info` records that give an index (the HEAD's) the job's entries for those paths. */
  records: string;
}

const skip = (reason: CommitSkipReason, detail: string): Skipped => ({ kind: 'skipped', reason, detail });
const LEFT = 'the job’s changes were left uncommitted';

/** A few paths for a sentence ("a.txt, b.txt and 3 more"). */
function named(paths: readonly string[]): string {
  const shown = paths.slice(0, 5).join(', ');
  return paths.length > 5 ? `${shown} and ${paths.length - 5} more` : shown;
}

function parseInput(raw: WorkspaceCommitInput) {
  const parsed = WorkspaceCommitInput.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`workspace commit: bad input (${describeIssues(parsed.error.issues, { whole: 'input' })})`);
  }
  jobCommitMessage(parsed.data); // throws now, before anything is read, if the ids cannot be trailers
  return parsed.data;
}

/** The tree of the workspace folder in a commit of the repository (the empty tree when the folder is not in it). */
async function workspaceTreeAt(repo: Repo, commit: string | null, commitTree: string, empty: string): Promise<string> {
  if (commit === null) return empty;
  if (!repo.prefix) return commitTree;
  const id = await resolve(repo, `${commit}:${repo.prefix.slice(0, -1)}`);
  if (id === null) return empty;
  return (await git(repo, ['cat-file', '-t', id])).trim() === 'tree' ? id : empty;
}

/** The person's staged changes (or unmerged entries) among `repoPaths`, if any. */
async function stagedAmong(repo: Repo, parentTree: string, repoPaths: readonly string[]): Promise<string[]> {
  const wanted = new Set(repoPaths);
  return (await stagedChanges(repo, parentTree)).map((c) => c.path).filter((p) => wanted.has(p));
}

/** Removals first, so that a file replacing a folder (or the reverse) never meets the entries it replaces. */
function indexRecords(changes: readonly TreeChange[], prefix: string): string {
  const zero = (c: TreeChange) => '0'.repeat(c.oldId.length);
  const removals = changes.filter((c) => /^0+$/.test(c.newMode)).map((c) => `0 ${zero(c)}\t${prefix}${c.path}\0`);
  const entries = changes
    .filter((c) => !/^0+$/.test(c.newMode))
    .map((c) => `${c.newMode} ${c.newId}\t${prefix}${c.path}\0`);
  return [...removals, ...entries].join('');
}

/**
 * Everything but what the person would see: checks each reason to skip, then writes the commit object (a new object
 * in the repository's store, reachable from nothing yet), built in a private temporary index, never the person's.
 */
export async function planJobCommit(raw: WorkspaceCommitInput): Promise<JobCommitPlan | Skipped> {
  const input = parseInput(raw);
  const located = await locateRepo(input.workspacePath, input.home);
  if ('none' in located) {
    return located.none === 'none'
      ? skip('not_a_repository', 'The workspace is not in a git repository, so there is nothing to commit to.')
      : skip('failed', `The workspace could not be read as a git repository: ${located.none}.`);
  }
  const repo = located;
  const [start, end] = await Promise.all([
    resolve(repo, `${input.startTree}^{tree}`),
    resolve(repo, `${input.endTree}^{tree}`),
  ]);
  if (start === null || end === null) {
    return skip('failed', `The job's checkpoints are not in this repository, so what it changed is unknown; ${LEFT}.`);
  }
  const isLeftOut = (p: string) => input.leftOut.some((l) => p === l || p.startsWith(`${l.replace(/\/+$/, '')}/`));
  const changes = (await treeChanges(repo, start, end)).filter((c) => !isLeftOut(c.path));
  if (changes.length === 0) return skip('nothing_changed', 'The job changed no file, so there was nothing to commit.');

  // Read together (each is a git process), judged in this order: an operation first, since a rebase detaches HEAD
  // and the rebase is what the person should hear about.
  const [operation, branch, signing, identity, empty, parent] = await Promise.all([
    operationInProgress(repo),
    currentBranch(repo),
    signingRequired(repo),
    hasIdentity(repo),
    emptyTree(repo),
    resolve(repo, 'HEAD^{commit}'),
  ]);
  if (operation !== null) {
    return skip(
      'operation_in_progress',
      `${operation.charAt(0).toUpperCase()}${operation.slice(1)} is in progress in the repository; ${LEFT} so as not to mix with it.`,
    );
  }
  if (branch === null) {
    return skip(
      'detached_head',
      `HEAD is detached (no branch is checked out), so there is no branch to commit on; ${LEFT}.`,
    );
  }
  if (signing) {
    return skip(
      'signing_required',
      `The repository asks for signed commits (commit.gpgSign) and MAESTRO never signs in your name; ${LEFT}.`,
    );
  }
  if (!identity) {
    return skip(
      'no_identity',
      `No git identity is set (user.name and user.email), so the commit would have no author; ${LEFT}.`,
    );
  }

  const parentTree = parent === null ? empty : ((await resolve(repo, `${parent}^{tree}`)) ?? empty);
  const files = changes.map((c) => c.path);
  const repoPaths = files.map((f) => `${repo.prefix}${f}`);
  const changed = new Set(files);
  const [atHead, staged] = await Promise.all([
    workspaceTreeAt(repo, parent, parentTree, empty).then((tree) => treeChanges(repo, start, tree)),
    stagedAmong(repo, parentTree, repoPaths),
  ]);
  const differed = atHead.map((c) => c.path).filter((p) => changed.has(p));
  if (differed.length > 0) {
    return skip(
      'own_changes',
      `${named(differed)} already differed from the last commit when the job started (changes of yours, or a commit made meanwhile); ${LEFT} so as not to commit yours.`,
    );
  }
  if (staged.length > 0) {
    return skip('own_changes', `${named(staged)} has changes of yours staged; ${LEFT} so as not to commit yours.`);
  }

  const records = indexRecords(changes, repo.prefix);
  const message = jobCommitMessage(input);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-commit-'));
  try {
    // A private index in our own temp folder (split index off, so nothing of it lands in the person's .git).
    const env = { GIT_INDEX_FILE: path.join(tmp, 'index') };
    const privately = ['-c', 'core.splitIndex=false', '-c', 'index.sparse=false'];
    await git(repo, [...privately, 'read-tree', parentTree], { env });
    await git(repo, [...privately, 'update-index', '-z', '--index-info'], { env, input: records });
    const tree = (await git(repo, [...privately, 'write-tree'], { env })).trim();
    const parentArgs = parent === null ? [] : ['-p', parent];
    const commit = (
      await git(repo, [...CONFIGURED_IDENTITY_ONLY, 'commit-tree', '--no-gpg-sign', tree, ...parentArgs], {
        input: message,
      })
    ).trim();
    const subject = message.split('\n')[0] ?? '';
    return { kind: 'planned', repo, branch, parent, parentTree, commit, subject, files, repoPaths, records };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Makes the planned commit the branch's tip, if the branch is still where the plan found it (compare-and-set), then
 * gives the person's index the commit's entries for the job's paths, so `git status` shows them clean.
 *
 * Why the index step is safe: the plan (and again this function, just before the branch moves) checked that the
 * person's index held, for each of these paths, exactly the old HEAD's entry, i.e. nothing of theirs was staged
 * there. Replacing those entries by the new HEAD's is what `git commit` itself leaves; every other entry (their
 * staged changes elsewhere) is untouched, and the working tree is never written.
 */
export async function applyJobCommit(plan: JobCommitPlan): Promise<WorkspaceCommitResult> {
  const { repo, branch, parent, commit } = plan;
  const ref = `refs/heads/${branch}`;
  const moved = skip('head_moved', `The branch ${branch} moved while the commit was being made; ${LEFT}.`);
  const [now, tip, staged] = await Promise.all([
    currentBranch(repo),
    resolve(repo, ref),
    stagedAmong(repo, plan.parentTree, plan.repoPaths),
  ]);
  if (now !== branch) {
    return skip('head_moved', `Another branch was checked out while the commit was being made; ${LEFT}.`);
  }
  if (tip !== parent) return moved;
  if (staged.length > 0) {
    return skip('own_changes', `${named(staged)} has changes of yours staged; ${LEFT} so as not to commit yours.`);
  }
  const zero = '0'.repeat(commit.length);
  const reflog = `commit (MAESTRO): ${plan.subject}`;
  try {
    await git(repo, ['update-ref', '-m', reflog, ref, commit, parent ?? zero]);
  } catch (error) {
    if ((await resolve(repo, ref)) !== parent) return moved;
    throw error;
  }
  try {
    await git(repo, ['update-index', '-z', '--index-info'], { input: plan.records });
  } catch (error) {
    // The branch goes back (compare-and-set again): a commit whose paths the index contradicts would show the
    // person the job's changes reversed as staged.
    const taken = 'MAESTRO: commit taken back (the index could not take it)';
    const back = parent === null ? ['update-ref', '-d', ref, commit] : ['update-ref', '-m', taken, ref, parent, commit];
    await git(repo, back);
    throw error;
  }
  // The commit is made: from here on nothing may turn it into a 'skipped'.
  const abbreviated = await runHostGit(['rev-parse', '--short', commit], { cwd: repo.top, home: repo.home }).catch(
    () => null,
  );
  const short = abbreviated?.code === 0 ? abbreviated.stdout.trim() : commit.slice(0, 7);
  return { kind: 'committed', hash: commit, short, branch, files: plan.files };
}

/** The workspace commit of a succeeded job (P2.21): made, or skipped with the reason; never half made. */
export async function commitJobChanges(input: WorkspaceCommitInput): Promise<WorkspaceCommitResult> {
  parseInput(input);
  try {
    const plan = await planJobCommit(input);
    return plan.kind === 'planned' ? await applyJobCommit(plan) : plan;
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
    const why = missing ? 'git was not found on this machine' : error instanceof Error ? error.message : String(error);
    return skip('failed', `The commit could not be made (${why}); ${LEFT}.`);
  }
}

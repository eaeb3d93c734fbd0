// Each reason the workspace commit (P2.21) is skipped, made real in a repository (a merge that conflicted, a rebase
// stopped, signing asked for, the person's own edits in the job's files, a branch that moved): the answer is
// 'skipped' with a reason a person understands, and HEAD, branches, the index (byte for byte), the working tree, the
// .git folder and the object store are exactly as before.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeRepo, removeRepos, type TestRepo } from '../../test-support/commit-repo-kit';
import { applyJobCommit, commitJobChanges, planJobCommit, type WorkspaceCommitInput } from './workspace-commit';

afterEach(() => {
  vi.unstubAllEnvs();
  removeRepos();
});

const ids = { taskId: 'task_0mabc1', jobId: 'job_0mabc2' };
const inputFor = (r: TestRepo, startTree: string, endTree: string): WorkspaceCommitInput => ({
  workspacePath: r.workspace,
  startTree,
  endTree,
  title: 'The job',
  result: 'done',
  ...ids,
  home: r.home,
});

/** A repository, the person's prelude, then a job that edits job.txt; its two snapshots. */
function jobIn(r: TestRepo, prelude: () => void = () => {}) {
  prelude();
  const start = r.snapshot();
  r.write('job.txt', 'written by the job\n');
  const end = r.snapshot();
  return inputFor(r, start, end);
}

/** Commits `file` with `text` on `branch` (created from main when new), then goes back to main. */
function commitOn(r: TestRepo, branch: string, file: string, text: string) {
  const exists = r.git('branch', '--list', branch).trim() !== '';
  r.git('checkout', '-q', ...(exists ? [branch] : ['-b', branch]));
  r.write(file, text);
  r.git('add', file);
  r.git('commit', '-q', '-m', `${file} on ${branch}`);
  r.git('checkout', '-q', 'main');
}

/** Runs a person's git command that is expected to stop with a conflict (a non-zero exit). */
function stops(r: TestRepo, ...args: string[]) {
  expect(() => r.git(...args)).toThrow();
}

async function expectSkipped(r: TestRepo, input: WorkspaceCommitInput, reason: string, detail: RegExp) {
  const before = r.fingerprint();
  const result = await commitJobChanges(input);
  expect(result).toMatchObject({ kind: 'skipped', reason });
  if (result.kind === 'skipped') expect(result.detail).toMatch(detail);
  expect(r.fingerprint()).toEqual(before);
  return result;
}

const base = { 'a.txt': 'a\n', 'c.txt': 'one\n' };

describe('workspace commit skipped (P2.21)', () => {
  it('P2.21: a folder that is not in a git repository: not_a_repository, and no .git appears', async () => {
    const r = makeRepo({ files: base });
    const plain = path.join(r.base, 'plain');
    fs.mkdirSync(plain);
    fs.writeFileSync(path.join(plain, 'f.txt'), 'x\n');
    const tree = r.snapshot();
    const result = await commitJobChanges({ ...inputFor(r, tree, tree), workspacePath: plain });
    expect(result).toMatchObject({ kind: 'skipped', reason: 'not_a_repository' });
    expect(fs.readdirSync(plain)).toEqual(['f.txt']);
  });

  it('P2.21: a job that changed nothing (or changed a file and changed it back): nothing_changed', async () => {
    const r = makeRepo({ files: base });
    const start = r.snapshot();
    r.write('a.txt', 'changed\n');
    r.write('a.txt', 'a\n');
    await expectSkipped(r, inputFor(r, start, r.snapshot()), 'nothing_changed', /changed no file/);
  });

  it('P2.21: a detached HEAD: detached_head', async () => {
    const r = makeRepo({ files: base });
    const input = jobIn(r, () => r.git('checkout', '-q', '--detach'));
    await expectSkipped(r, input, 'detached_head', /HEAD is detached/);
  });

  it.each([
    ['a merge that conflicted', (r: TestRepo) => stops(r, 'merge', '-q', 'other'), /^A merge is in progress/],
    ['a cherry-pick that conflicted', (r: TestRepo) => stops(r, 'cherry-pick', 'other'), /^A cherry-pick/],
    ['a rebase stopped at a conflict', (r: TestRepo) => stops(r, 'rebase', 'other'), /^A rebase is in progress/],
    ['a rebase of the apply backend', (r: TestRepo) => stops(r, 'rebase', '--apply', 'other'), /git am/],
    [
      'a revert that conflicted',
      (r: TestRepo) => {
        commitOn(r, 'main', 'c.txt', 'three\n');
        stops(r, 'revert', '--no-edit', 'HEAD~1');
      },
      /^A revert/,
    ],
    ['a bisect', (r: TestRepo) => r.git('bisect', 'start'), /^A bisect/],
    [
      'another git command holding the index',
      (r: TestRepo) => fs.writeFileSync(path.join(r.repo, '.git', 'index.lock'), ''),
      /index is locked/,
    ],
  ])('P2.21: %s: operation_in_progress', async (_what, begin, detail) => {
    const r = makeRepo({ files: base });
    commitOn(r, 'other', 'c.txt', 'from other\n');
    commitOn(r, 'main', 'c.txt', 'two\n');
    const input = jobIn(r, () => begin(r));
    await expectSkipped(r, input, 'operation_in_progress', detail);
  });

  it.each(['repository', 'global'] as const)(
    'P2.21: commit.gpgSign on in the %s config: signing_required (we never sign for the person)',
    async (where) => {
      const r = makeRepo({ files: base });
      if (where === 'repository') r.git('config', 'commit.gpgSign', 'true');
      else fs.writeFileSync(path.join(r.home, '.gitconfig'), '[commit]\n\tgpgSign = yes\n');
      await expectSkipped(r, jobIn(r), 'signing_required', /signed commits/);
    },
  );

  it('P2.21: no user.name / user.email anywhere (repository or global): no_identity, no invented author', async () => {
    const r = makeRepo({ files: base, identity: 'none' });
    await expectSkipped(r, jobIn(r), 'no_identity', /No git identity/);
  });

  it('P2.21: the person had uncommitted edits in a file the job then changed: own_changes naming it', async () => {
    const r = makeRepo({ files: base });
    r.write('a.txt', 'the person’s edit\n');
    const start = r.snapshot();
    r.write('a.txt', 'the person’s edit, then the job’s\n');
    r.write('job.txt', 'new\n');
    await expectSkipped(r, inputFor(r, start, r.snapshot()), 'own_changes', /^a\.txt already differed/);
  });

  it('P2.21: the person has a staged version of a file the job changed (working tree as committed): own_changes', async () => {
    const r = makeRepo({ files: base });
    r.write('a.txt', 'staged by the person\n');
    r.git('add', 'a.txt');
    r.write('a.txt', 'a\n');
    const start = r.snapshot();
    r.write('a.txt', 'the job’s\n');
    await expectSkipped(r, inputFor(r, start, r.snapshot()), 'own_changes', /^a\.txt has changes of yours staged/);
  });

  it('P2.21: the person committed the same file while the job ran: own_changes', async () => {
    const r = makeRepo({ files: base });
    const start = r.snapshot();
    r.write('a.txt', 'the job’s\n');
    const end = r.snapshot();
    r.write('a.txt', 'the person’s commit\n');
    r.git('commit', '-q', '-am', 'mine');
    await expectSkipped(r, inputFor(r, start, end), 'own_changes', /a\.txt already differed/);
  });

  it('P2.21: the branch moved between building the commit and moving the branch: head_moved, the branch left where the person put it', async () => {
    const r = makeRepo({ files: base });
    const plan = await planJobCommit(jobIn(r));
    if (plan.kind !== 'planned') throw new Error(`not planned: ${plan.detail}`);
    r.write('mine.txt', 'x\n');
    r.git('add', 'mine.txt');
    r.git('commit', '-q', '-m', 'the person commits meanwhile');
    const before = r.fingerprint();
    expect(await applyJobCommit(plan)).toMatchObject({ kind: 'skipped', reason: 'head_moved' });
    expect(r.fingerprint()).toEqual(before);
    expect(r.git('log', '-1', '--format=%s').trim()).toBe('the person commits meanwhile');
  });

  it('P2.21: another branch checked out meanwhile (at the same commit): head_moved, neither branch moved', async () => {
    const r = makeRepo({ files: base });
    const plan = await planJobCommit(jobIn(r));
    if (plan.kind !== 'planned') throw new Error(`not planned: ${plan.detail}`);
    r.git('checkout', '-q', '-b', 'feature');
    const before = r.fingerprint();
    expect(await applyJobCommit(plan)).toMatchObject({ kind: 'skipped', reason: 'head_moved' });
    expect(r.fingerprint()).toEqual(before);
  });

  it('P2.21: the person staged one of the job’s files after the commit was built: own_changes, nothing moved', async () => {
    const r = makeRepo({ files: base });
    const plan = await planJobCommit(jobIn(r));
    if (plan.kind !== 'planned') throw new Error(`not planned: ${plan.detail}`);
    r.git('add', 'job.txt');
    const before = r.fingerprint();
    expect(await applyJobCommit(plan)).toMatchObject({ kind: 'skipped', reason: 'own_changes' });
    expect(r.fingerprint()).toEqual(before);
  });

  it('P2.21: the person’s index cannot take the new entries (locked after the commit was built): the branch goes back, never half made', async () => {
    const r = makeRepo({ files: base });
    const plan = await planJobCommit(jobIn(r));
    if (plan.kind !== 'planned') throw new Error(`not planned: ${plan.detail}`);
    fs.writeFileSync(path.join(r.repo, '.git', 'index.lock'), '');
    const before = r.fingerprint();
    await expect(applyJobCommit(plan)).rejects.toThrow(/index\.lock/);
    expect(r.fingerprint()).toEqual(before);
    expect(r.git('reflog', '-2', '--format=%gs', 'main').split('\n').filter(Boolean)).toEqual([
      'MAESTRO: commit taken back (the index could not take it)',
      'commit (MAESTRO): The job',
    ]);
  });

  it('P2.21: checkpoints that are not in the repository: failed, saying so', async () => {
    const r = makeRepo({ files: base });
    const unknown = 'f'.repeat(40);
    await expectSkipped(r, inputFor(r, unknown, r.snapshot()), 'failed', /checkpoints are not in this repository/);
  });

  it('P2.21: no git on the machine: failed, saying git was not found', async () => {
    const r = makeRepo({ files: base });
    const input = jobIn(r);
    const before = r.fingerprint();
    vi.stubEnv('PATH', path.join(r.base, 'no-bin'));
    const result = await commitJobChanges(input);
    vi.unstubAllEnvs();
    expect(result).toMatchObject({
      kind: 'skipped',
      reason: 'failed',
      detail: expect.stringMatching(/git was not found/),
    });
    expect(r.fingerprint()).toEqual(before);
  });

  it.each([
    ['startTree', { startTree: '--output=/tmp/x' }, /startTree: must be a full hex object name/],
    ['workspacePath', { workspacePath: 'relative/dir' }, /workspacePath: must be an absolute path/],
    ['taskId', { taskId: 'task_1\nMAESTRO-Job: forged' }, /task id/],
  ])('P2.21: bad input (%s) is refused with what was wrong, and nothing changes', async (_field, bad, message) => {
    const r = makeRepo({ files: base });
    const input = jobIn(r);
    const before = r.fingerprint();
    await expect(commitJobChanges({ ...input, ...bad })).rejects.toThrow(message);
    expect(r.fingerprint()).toEqual(before);
  });
});

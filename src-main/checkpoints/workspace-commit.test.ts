// The workspace commit a succeeded job makes (P2.21), in real repositories: exactly the job's files with their
// contents at the end of the job, on the current branch, as the person, with the task's message and trailers; the
// person's own uncommitted work (staged, unstaged, untracked) left exactly as it was; no hook run.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeRepo, PERSON, plantHooks, removeRepos, type TestRepo } from '../../test-support/commit-repo-kit';
import { commitJobChanges } from './workspace-commit';

afterEach(removeRepos);

const ids = { taskId: 'task_0mabc1234deadbeefcafe0001', jobId: 'job_0mabc1234deadbeefcafe0002' };

function commitFor(
  r: TestRepo,
  startTree: string,
  endTree: string,
  more: { title?: string; result?: string | null } = {},
) {
  return commitJobChanges({
    workspacePath: r.workspace,
    startTree,
    endTree,
    title: more.title ?? 'Fix the greeting',
    result: more.result === undefined ? 'Changed the greeting and removed the old notes.' : more.result,
    ...ids,
    home: r.home,
  });
}

/** `git status --porcelain` lines, sorted. */
const status = (r: TestRepo) =>
  r.git('status', '--porcelain', '--untracked-files=all').split('\n').filter(Boolean).sort();
const nameStatus = (r: TestRepo, rev = 'HEAD') =>
  r.git('show', '--no-renames', '--name-status', '--format=', rev).split('\n').filter(Boolean).sort();

describe('workspace commit (P2.21)', () => {
  it('P2.21: a succeeded job commits exactly its edit, new file and deletion on the current branch, as the person, with the task in the message', async () => {
    const r = makeRepo({
      files: { 'a.txt': 'hello\n', 'b.txt': 'b\n', 'c.txt': 'old notes\n', 'mine.txt': 'm\n', 'staged.txt': 's\n' },
    });
    const before = r.git('rev-parse', 'HEAD').trim();
    // The person's own work, uncommitted: an unstaged edit, a staged edit, an untracked file.
    r.write('mine.txt', 'my unstaged edit\n');
    r.write('staged.txt', 'my staged edit\n');
    r.git('add', 'staged.txt');
    r.write('untracked.txt', 'my scratch\n');
    const start = r.snapshot();
    // The job.
    r.write('a.txt', 'hello, world\n');
    r.write('src/new.ts', 'export const x = 1;\n');
    r.remove('c.txt');
    const end = r.snapshot();

    const result = await commitFor(r, start, end);

    expect(result).toMatchObject({ kind: 'committed', branch: 'main', files: ['a.txt', 'c.txt', 'src/new.ts'] });
    if (result.kind !== 'committed') throw new Error('not committed');
    expect(r.git('rev-parse', 'refs/heads/main').trim()).toBe(result.hash);
    expect(result.hash.startsWith(result.short)).toBe(true);
    expect(r.git('rev-parse', 'HEAD^').trim()).toBe(before);
    expect(nameStatus(r)).toEqual(['A\tsrc/new.ts', 'D\tc.txt', 'M\ta.txt']);
    expect(r.git('show', 'HEAD:a.txt')).toBe('hello, world\n');
    expect(r.git('show', 'HEAD:src/new.ts')).toBe('export const x = 1;\n');
    // The person's files are not in the commit: their committed versions are still the old ones.
    expect(r.git('show', 'HEAD:mine.txt')).toBe('m\n');
    expect(r.git('show', 'HEAD:staged.txt')).toBe('s\n');
    // As the person, by their configured identity (not the environment's "Setup" that made the first commit).
    expect(r.git('log', '-1', '--format=%an <%ae>|%cn <%ce>').trim()).toBe(
      `${PERSON.name} <${PERSON.email}>|${PERSON.name} <${PERSON.email}>`,
    );
    expect(r.git('log', '-1', '--format=%B')).toBe(
      `Fix the greeting\n\nChanged the greeting and removed the old notes.\n\nMAESTRO-Task: ${ids.taskId}\nMAESTRO-Job: ${ids.jobId}\n\n`,
    );
    expect(
      r.git('log', '-1', '--format=%(trailers:key=MAESTRO-Task,valueonly)%(trailers:key=MAESTRO-Job,valueonly)'),
    ).toBe(
      `${ids.taskId}\n${ids.jobId}\n\n`, // one line per trailer, then log's own line end
    );
    expect(r.git('log', '-1', '--format=%G?').trim()).toBe('N');
    // The person's work is as it was: unstaged still unstaged, staged still staged (same content), untracked still
    // untracked; the job's files are clean.
    expect(status(r)).toEqual([' M mine.txt', '?? untracked.txt', 'M  staged.txt']);
    expect(r.git('diff', '--cached', '--', 'staged.txt')).toContain('+my staged edit');
    expect(r.read('mine.txt')).toBe('my unstaged edit\n');
    expect(r.read('a.txt')).toBe('hello, world\n');
    expect(fs.existsSync(path.join(r.workspace, 'c.txt'))).toBe(false);
    expect(r.git('reflog', '-1', '--format=%gs', 'main').trim()).toBe('commit (MAESTRO): Fix the greeting');
  });

  it('P2.21: a file the person edited after the snapshot keeps that edit in the working tree, shown as theirs', async () => {
    const r = makeRepo({ files: { 'a.txt': 'one\n' } });
    const start = r.snapshot();
    r.write('a.txt', 'two\n');
    const end = r.snapshot();
    r.write('a.txt', 'three, by the person\n');
    const result = await commitFor(r, start, end);
    expect(result.kind).toBe('committed');
    expect(r.git('show', 'HEAD:a.txt')).toBe('two\n');
    expect(r.read('a.txt')).toBe('three, by the person\n');
    expect(status(r)).toEqual([' M a.txt']);
  });

  it.each(['dot-git', 'hooks-path'] as const)(
    'P2.21: no hook of the repository runs (%s: pre-commit, commit-msg, post-commit, reference-transaction, post-index-change)',
    async (where) => {
      const r = makeRepo({ files: { 'a.txt': 'a\n' } });
      const { markers } = plantHooks(r, where);
      const start = r.snapshot();
      r.write('a.txt', 'changed\n');
      const end = r.snapshot();
      // The test's own snapshots (plain `git add` on a temporary index) ran post-index-change: start from none.
      for (const m of fs.readdirSync(markers)) fs.rmSync(path.join(markers, m));
      expect(await commitFor(r, start, end)).toMatchObject({ kind: 'committed' });
      expect(fs.readdirSync(markers)).toEqual([]);
      // The hooks are live: the person's own git runs them.
      r.write('b.txt', 'b\n');
      r.git('add', 'b.txt');
      r.git('commit', '-q', '-m', 'by the person');
      expect(fs.readdirSync(markers)).toEqual(
        expect.arrayContaining([
          'pre-commit',
          'commit-msg',
          'post-commit',
          'reference-transaction',
          'post-index-change',
        ]),
      );
    },
  );

  it('P2.21: a rename is committed as the old path removed and the new one added; a file replaced by a folder too', async () => {
    const r = makeRepo({ files: { 'old.txt': 'same text\n', thing: 'a file\n', 'keep.txt': 'k\n' } });
    const start = r.snapshot();
    fs.renameSync(path.join(r.workspace, 'old.txt'), path.join(r.workspace, 'new.txt'));
    r.remove('thing');
    r.write('thing/inside.txt', 'now a folder\n');
    const end = r.snapshot();
    const result = await commitFor(r, start, end);
    expect(result).toMatchObject({ kind: 'committed', files: ['new.txt', 'old.txt', 'thing', 'thing/inside.txt'] });
    expect(nameStatus(r)).toEqual(['A\tnew.txt', 'A\tthing/inside.txt', 'D\told.txt', 'D\tthing']);
    expect(status(r)).toEqual([]);
  });

  it('P2.21: names with spaces, non-ASCII, glob characters and a line break, and 2,000 files at once, are committed exactly', async () => {
    const odd = ['dir with space/ü ñ.txt', '*.txt', '[ab].md', 'line\nbreak.txt', '-n'];
    const r = makeRepo({ files: { 'a.txt': 'a\n', '*.txt': 'star\n' } });
    r.write('mine [x].txt', 'the person’s\n');
    const start = r.snapshot();
    for (const name of odd) r.write(name, `${name}\n`);
    for (let i = 0; i < 2000; i++) r.write(`many/f${i}.txt`, `${i}\n`);
    const end = r.snapshot();
    const result = await commitFor(r, start, end);
    if (result.kind !== 'committed') throw new Error(result.detail);
    expect(result.files).toHaveLength(odd.length + 2000);
    expect(result.files).toEqual(expect.arrayContaining(odd));
    for (const name of odd) expect(r.git('show', `HEAD:${name}`)).toBe(`${name}\n`);
    expect(r.git('show', 'HEAD:a.txt')).toBe('a\n');
    expect(status(r)).toEqual(['?? "mine [x].txt"']);
  });

  it('P2.21: an executable bit and a symbolic link are committed as they are in the snapshot', async () => {
    const r = makeRepo({ files: { 'run.sh': '#!/bin/sh\n' } });
    const start = r.snapshot();
    fs.chmodSync(path.join(r.workspace, 'run.sh'), 0o755);
    fs.symlinkSync('run.sh', path.join(r.workspace, 'link'));
    const end = r.snapshot();
    expect(await commitFor(r, start, end)).toMatchObject({ kind: 'committed', files: ['link', 'run.sh'] });
    expect(
      r
        .git('ls-tree', 'HEAD')
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split(' ')[0]),
    ).toEqual(['120000', '100755']);
    expect(status(r)).toEqual([]);
  });

  it('P2.21: a workspace in a subfolder of the repository commits its files under that folder, and nothing outside it', async () => {
    const r = makeRepo({ subfolder: 'apps/site', files: { 'index.html': '<p>hi</p>\n' } });
    fs.writeFileSync(path.join(r.repo, 'ROOT.md'), 'root\n');
    r.git('add', 'ROOT.md');
    r.git('commit', '-q', '-m', 'root file');
    fs.writeFileSync(path.join(r.repo, 'ROOT.md'), 'the person edits the root\n');
    const start = r.snapshot();
    r.write('index.html', '<p>hello</p>\n');
    r.write('style.css', 'p { color: red }\n');
    const end = r.snapshot();
    const result = await commitFor(r, start, end);
    expect(result).toMatchObject({ kind: 'committed', files: ['index.html', 'style.css'] });
    expect(nameStatus(r)).toEqual(['A\tapps/site/style.css', 'M\tapps/site/index.html']);
    expect(r.git('show', 'HEAD:apps/site/index.html')).toBe('<p>hello</p>\n');
    expect(status(r)).toEqual([' M ROOT.md']);
  });

  it('P2.21: a linked worktree (git worktree add) commits on its own branch, with its own index', async () => {
    const r = makeRepo({ files: { 'a.txt': 'a\n' } });
    const w = r.linkedWorktree('feature');
    fs.writeFileSync(path.join(r.repo, 'a.txt'), 'the main worktree’s own edit\n');
    const start = w.snapshot();
    w.write('a.txt', 'in the second worktree\n');
    const end = w.snapshot();
    expect(await commitFor(w, start, end)).toMatchObject({ kind: 'committed', branch: 'feature', files: ['a.txt'] });
    expect(r.git('show', 'feature:a.txt')).toBe('in the second worktree\n');
    expect(r.git('rev-list', '--count', 'main').trim()).toBe('1');
    expect(r.git('-C', w.workspace, 'status', '--porcelain')).toBe('');
    expect(status(r)).toEqual([' M a.txt']);
  });

  it('P2.21: on an unborn branch (a repository with no commit yet) the first commit holds only the job files', async () => {
    const r = makeRepo();
    r.write('notes.txt', 'the person’s, never added\n');
    const start = r.snapshot();
    r.write('main.py', 'print("hi")\n');
    const end = r.snapshot();
    const result = await commitFor(r, start, end);
    expect(result).toMatchObject({ kind: 'committed', branch: 'main', files: ['main.py'] });
    expect(r.git('rev-list', '--count', 'HEAD').trim()).toBe('1');
    expect(r.git('ls-tree', '--name-only', 'HEAD')).toBe('main.py\n');
    expect(status(r)).toEqual(['?? notes.txt']);
  });

  it('P2.21: the author is the identity in the person’s global config when the repository has none', async () => {
    const r = makeRepo({ identity: 'global', files: { 'a.txt': 'a\n' } });
    const start = r.snapshot();
    r.write('a.txt', 'b\n');
    const end = r.snapshot();
    expect(await commitFor(r, start, end)).toMatchObject({ kind: 'committed' });
    expect(r.git('log', '-1', '--format=%an <%ae>').trim()).toBe(`${PERSON.name} <${PERSON.email}>`);
  });

  it('P2.21: paths the snapshots left out are never committed (a file that grew past the size limit looks deleted)', async () => {
    const r = makeRepo({ files: { 'big.bin': 'small then\n', 'a.txt': 'a\n' } });
    const start = r.snapshot();
    r.write('a.txt', 'changed\n');
    r.remove('big.bin'); // as a snapshot that skipped it sees it
    const end = r.snapshot();
    const result = await commitJobChanges({
      workspacePath: r.workspace,
      startTree: start,
      endTree: end,
      title: 't',
      result: null,
      ...ids,
      home: r.home,
      leftOut: ['big.bin'],
    });
    expect(result).toMatchObject({ kind: 'committed', files: ['a.txt'] });
    expect(r.git('show', 'HEAD:big.bin')).toBe('small then\n');
  });

  it('P2.21: a long title and result are cut, a null result gives a message of subject and trailers only', async () => {
    const r = makeRepo({ files: { 'a.txt': 'a\n' } });
    const start = r.snapshot();
    r.write('a.txt', 'b\n');
    const end = r.snapshot();
    const title = `Refactor\nthe ${'very '.repeat(40)}long module`;
    expect(await commitFor(r, start, end, { title, result: `${'x'.repeat(20_000)}` })).toMatchObject({
      kind: 'committed',
    });
    const subject = r.git('log', '-1', '--format=%s').trim();
    expect(subject.startsWith('Refactor the very very')).toBe(true);
    expect(Array.from(subject).length).toBeLessThanOrEqual(101);
    expect(r.git('log', '-1', '--format=%b').length).toBeLessThan(8300);
    r.write('a.txt', 'c\n');
    const again = r.snapshot();
    expect(await commitFor(r, end, again, { title: 'Second', result: null })).toMatchObject({ kind: 'committed' });
    expect(r.git('log', '-1', '--format=%B')).toBe(
      `Second\n\nMAESTRO-Task: ${ids.taskId}\nMAESTRO-Job: ${ids.jobId}\n\n`,
    );
  });
});

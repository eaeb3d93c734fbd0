// The snapshot store against real repositories (issue 22, point 1): snapshot → changes → restore round trips in a
// person's git repository armed with hooks, an fsmonitor, a filter driver and required signing (none may run, and
// HEAD, branches, index, stash, config and `git status` stay as they were), and in a plain folder (a private
// repository in the data dir), with the paths a snapshot must leave out and restore must never touch.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  armRepo,
  gitIn,
  personRepo,
  personState,
  type TempBase,
  tempBase,
  writeFiles,
} from '../../test-support/git-workspaces';
import { type GitSnapshotStore, openSnapshotStore } from './git-store';
import type { SnapshotStore } from './types';

const bases: TempBase[] = [];
afterEach(() => {
  for (const b of bases.splice(0)) b.cleanup();
});
function base(): TempBase {
  const b = tempBase();
  bases.push(b);
  return b;
}

async function open(t: TempBase, workspacePath: string, taskId = 't1', maxFileBytes = 1024 * 1024) {
  const store = await openSnapshotStore({ workspacePath, dataDir: path.join(t.base, 'data'), taskId, maxFileBytes });
  if (store.kind === 'off') throw new Error(`no store: ${store.note}`);
  return store as GitSnapshotStore;
}

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');
const exists = (root: string, rel: string) => fs.existsSync(path.join(root, rel));
/** Every file below root (not .git), path → content. */
function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      if (d.name === '.git') continue;
      const p = path.join(dir, d.name);
      if (d.isDirectory()) walk(p);
      else out[path.relative(root, p)] = fs.readFileSync(p, 'utf8');
    }
  };
  walk(root);
  return out;
}

/** Edits, a file created by a command, one deleted by a command, a rename. */
function work(root: string) {
  fs.writeFileSync(path.join(root, 'src/a.ts'), 'export const a = 2;\n');
  execFileSync(
    'sh',
    ['-c', 'echo generated > out.txt && rm b.txt run.sh && mkdir -p made/deep && echo x > made/deep/x.txt'],
    {
      cwd: root,
    },
  );
  fs.renameSync(path.join(root, 'docs/c.md'), path.join(root, 'docs/renamed.md'));
}

const FILES = {
  'src/a.ts': 'export const a = 1;\n',
  'b.txt': 'bee\n',
  'docs/c.md': '# A document long enough for git to see the rename\n\nline two\nline three\n',
  'run.sh': '#!/bin/sh\necho run\n',
  '.gitignore': 'ignored/\n*.log\n',
};

async function roundTrip(store: SnapshotStore, root: string) {
  const before = tree(root);
  const s1 = await store.snapshot('tasks/t1/1', null);
  expect(s1.files.map((f) => f.path)).toEqual(expect.arrayContaining(['src/a.ts', 'b.txt', 'docs/c.md']));
  work(root);
  const s2 = await store.snapshot('tasks/t1/2', s1.commit);
  const expected = [
    { path: 'b.txt', change: 'deleted' },
    { path: 'docs/renamed.md', change: 'renamed', from: 'docs/c.md' },
    { path: 'made/deep/x.txt', change: 'added' },
    { path: 'out.txt', change: 'added' },
    { path: 'run.sh', change: 'deleted' },
    { path: 'src/a.ts', change: 'modified' },
  ];
  const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
  expect([...s2.files].sort(byPath)).toEqual(expected);
  expect([...(await store.changes(s1.commit, s2.commit))].sort(byPath)).toEqual(expected);
  const after = tree(root);

  const restored = await store.restore(s1.commit, s2.commit);
  expect(restored).toEqual({
    restored: ['b.txt', 'docs/c.md', 'run.sh', 'src/a.ts'],
    removed: ['docs/renamed.md', 'made/deep/x.txt', 'out.txt'],
  });
  expect(tree(root)).toEqual(before);
  expect(exists(root, 'made')).toBe(false); // the folders the removal emptied went too
  expect(fs.statSync(path.join(root, 'run.sh')).mode & 0o111).not.toBe(0); // came back executable
  // Run again (as after a crash midway): the same result, nothing else changes.
  expect(await store.restore(s1.commit, s2.commit)).toEqual(restored);
  expect(tree(root)).toEqual(before);
  // And forward again (a rewind undone).
  await store.restore(s2.commit, s1.commit);
  expect(tree(root)).toEqual(after);
  await store.restore(s1.commit, s2.commit);
  return { s1, s2 };
}

describe('snapshot store in a git workspace (issue 22)', () => {
  it('round-trips edits, command-made and deleted files and a rename; the person’s HEAD, branches, index, stash, config, hooks and status are unchanged and no hook, fsmonitor, filter or signing ran', async () => {
    const t = base();
    const repo = personRepo(t, FILES);
    fs.chmodSync(path.join(repo, 'run.sh'), 0o755);
    gitIn(repo, t.env, 'add', 'run.sh');
    // A staged change the person has in their index, and an unstaged one.
    writeFiles(repo, { 'staged.txt': 'staged\n', 'ignored/cache.bin': 'ignored\n', 'debug.log': 'log\n' });
    gitIn(repo, t.env, 'add', 'staged.txt');
    const markers = armRepo(t, repo);
    // The traps are real: the person's own git runs them.
    gitIn(repo, t.env, 'status');
    expect(fs.readdirSync(markers)).toContain('fsmonitor');
    for (const m of fs.readdirSync(markers)) fs.rmSync(path.join(markers, m));
    const person = personState(repo, t.env);

    const store = await open(t, repo);
    expect(store.kind).toBe('git');
    await roundTrip(store, repo);
    // A second task on the same repository; refs of both live under refs/maestro/.
    const other = await open(t, repo, 't2');
    await other.snapshot('tasks/t2/1', null);

    expect(fs.readdirSync(markers)).toEqual([]);
    expect(personState(repo, t.env)).toEqual(person);
    expect(read(repo, 'ignored/cache.bin')).toBe('ignored\n');
    expect(fs.existsSync(path.join(repo, '.git', 'index.lock'))).toBe(false);
    const refs = gitIn(repo, t.env, 'for-each-ref', '--format=%(refname)', 'refs/maestro').trim().split('\n');
    expect(refs).toEqual(['refs/maestro/tasks/t1/1', 'refs/maestro/tasks/t1/2', 'refs/maestro/tasks/t2/1']);
    // The snapshot commits carry the MAESTRO identity and no signature.
    const commit = gitIn(repo, t.env, 'cat-file', 'commit', 'refs/maestro/tasks/t1/2');
    expect(commit).toMatch(/^author MAESTRO <checkpoints@maestro.invalid>/m);
    expect(commit).not.toMatch(/gpgsig/);
  });

  it('a workspace in a folder of a repository snapshots and restores that folder only, with folder-relative paths', async () => {
    const t = base();
    const repo = personRepo(t, { 'top.txt': 'top\n', 'app/a.txt': 'a\n', 'app/sub/b.txt': 'b\n' });
    const ws = path.join(repo, 'app');
    const person = personState(repo, t.env);
    const store = await open(t, ws);
    const s1 = await store.snapshot('tasks/t1/1', null);
    expect(s1.files.map((f) => f.path).sort()).toEqual(['a.txt', 'sub/b.txt']);
    fs.writeFileSync(path.join(ws, 'a.txt'), 'changed\n');
    fs.writeFileSync(path.join(repo, 'top.txt'), 'outside the workspace\n');
    fs.rmSync(path.join(ws, 'sub/b.txt'));
    const s2 = await store.snapshot('tasks/t1/2', s1.commit);
    expect(s2.files).toEqual([
      { path: 'a.txt', change: 'modified' },
      { path: 'sub/b.txt', change: 'deleted' },
    ]);
    expect(await store.restore(s1.commit, s2.commit, ['sub/b.txt'])).toEqual({ restored: ['sub/b.txt'], removed: [] });
    expect(read(ws, 'a.txt')).toBe('changed\n'); // a file revert touches only its file
    await store.restore(s1.commit, s2.commit);
    expect(read(ws, 'a.txt')).toBe('a\n');
    expect(read(repo, 'top.txt')).toBe('outside the workspace\n');
    fs.writeFileSync(path.join(repo, 'top.txt'), 'top\n');
    expect(personState(repo, t.env)).toEqual(person);
  });

  it('files with a filter attribute (LFS or another driver) are skipped and the person’s filter commands never run', async () => {
    const t = base();
    const repo = personRepo(t, { '.gitattributes': '*.evil filter=evil\n*.bin filter=lfs\n', 'a.txt': 'a\n' });
    const markers = armRepo(t, repo);
    // A tracked filtered file the person added (their driver quieted here), then touched: same size, new mtime, so
    // a git that looks whether it changed compares its contents, which runs the clean filter.
    writeFiles(repo, { 'tracked.evil': 'tracked\n' });
    const quiet = [
      'core.fsmonitor=false',
      'filter.evil.process=',
      'filter.evil.clean=',
      'filter.evil.required=false',
    ].flatMap((c) => ['-c', c]);
    gitIn(repo, t.env, ...quiet, 'add', 'tracked.evil');
    fs.utimesSync(path.join(repo, 'tracked.evil'), new Date(Date.now() + 5000), new Date(Date.now() + 5000));
    writeFiles(repo, { 'secret.evil': 'x\n', 'model.bin': 'weights\n', 'plain.txt': 'p\n' });
    // Plain git would run the driver's process command on `git add` (it fails, having run).
    const probeEnv = { ...t.env, GIT_INDEX_FILE: path.join(t.base, 'probe-index') };
    expect(() => gitIn(repo, probeEnv, '-c', 'core.fsmonitor=false', 'add', 'secret.evil')).toThrow(/filter/);
    expect(fs.readdirSync(markers)).toContain('process');
    for (const m of fs.readdirSync(markers)) fs.rmSync(path.join(markers, m));

    const store = await open(t, repo);
    const s1 = await store.snapshot('tasks/t1/1', null);
    expect(s1.skipped).toEqual([
      { path: 'model.bin', reason: 'lfs' },
      { path: 'secret.evil', reason: 'filter' },
    ]);
    expect(s1.files.map((f) => f.path)).toContain('plain.txt');
    expect(s1.files.map((f) => f.path)).not.toContain('secret.evil');
    fs.writeFileSync(path.join(repo, 'secret.evil'), 'changed\n');
    const s2 = await store.snapshot('tasks/t1/2', s1.commit);
    await store.restore(s1.commit, s2.commit);
    expect(read(repo, 'secret.evil')).toBe('changed\n');
    expect(fs.readdirSync(markers)).toEqual([]);
  });

  it('a lock left by a killed snapshot does not block the next, and the person’s own index.lock is never taken', async () => {
    const t = base();
    const repo = personRepo(t, { 'a.txt': 'a\n' });
    const store = await open(t, repo);
    await store.snapshot('tasks/t1/1', null);
    fs.writeFileSync(path.join(t.base, 'data/checkpoints/index/t1.lock'), '');
    // The person's git is in the middle of a commit: their index is locked.
    fs.writeFileSync(path.join(repo, '.git/index.lock'), '');
    fs.writeFileSync(path.join(repo, 'a.txt'), 'b\n');
    const s2 = await store.snapshot('tasks/t1/2', null);
    expect(s2.files).toEqual([{ path: 'a.txt', change: 'added' }]);
    expect(fs.readFileSync(path.join(repo, '.git/index.lock'), 'utf8')).toBe('');
  });

  it('bad ref names are refused with the name, and nothing is written', async () => {
    const t = base();
    const repo = personRepo(t, { 'a.txt': 'a\n' });
    const store = await open(t, repo);
    for (const bad of ['../heads/main', 'tasks/x.lock', 'a..b', '', 'tasks/']) {
      await expect(store.snapshot(bad, null)).rejects.toThrow(/not a valid ref name/);
    }
    await expect(store.dropRefs(['refs/heads/main'])).resolves.toBeUndefined();
    expect(gitIn(repo, t.env, 'rev-parse', '--verify', '-q', 'refs/heads/main')).not.toBe('');
    expect(gitIn(repo, t.env, 'for-each-ref', 'refs/maestro')).toBe('');
  });

  it('kept refs are git’s own: from a linked worktree they land in the main repository, git lists them and fsck passes; a held ref lock is left to git, which refuses and writes nothing', async () => {
    const t = base();
    const repo = personRepo(t, { 'a.txt': 'a\n' });
    const worktree = path.join(t.base, 'linked');
    gitIn(repo, t.env, 'worktree', 'add', '-q', worktree, 'feature');
    const store = await open(t, worktree);
    fs.writeFileSync(path.join(worktree, 'a.txt'), 'b\n');
    const sealed = await store.seal(await store.capture(), 'tasks/t1/1', null);
    // A first seal lists no files (nothing is counted before a task's first checkpoint).
    expect(sealed.files).toEqual([]);
    await store.keepRefs([{ ref: 'tasks/t1/1', commit: sealed.commit }]);
    expect(fs.readFileSync(path.join(repo, '.git/refs/maestro/tasks/t1/1'), 'utf8')).toBe(`${sealed.commit}\n`);
    expect(gitIn(repo, t.env, 'for-each-ref', '--format=%(objectname) %(refname)', 'refs/maestro')).toBe(
      `${sealed.commit} refs/maestro/tasks/t1/1\n`,
    );
    expect(gitIn(worktree, t.env, 'rev-parse', 'refs/maestro/tasks/t1/1').trim()).toBe(sealed.commit);
    gitIn(repo, t.env, 'fsck', '--strict', '--no-dangling');

    fs.writeFileSync(path.join(repo, '.git/refs/maestro/tasks/t1/2.lock'), '');
    await expect(store.keepRefs([{ ref: 'tasks/t1/2', commit: sealed.commit }])).rejects.toThrow(
      /update-ref failed.*remove the file manually/,
    );
    expect(exists(repo, '.git/refs/maestro/tasks/t1/2')).toBe(false);
    expect(fs.readFileSync(path.join(repo, '.git/refs/maestro/tasks/t1/2.lock'), 'utf8')).toBe('');
  });

  it('a merge in progress in the person’s repository: snapshots work, a conflicted file left out stays as it is', async () => {
    const t = base();
    const repo = personRepo(t, { 'f.txt': 'base\n', 'big.txt': 'base\n' });
    const git = (...args: string[]) => gitIn(repo, t.env, ...args);
    git('checkout', '-q', '-b', 'other');
    writeFiles(repo, { 'f.txt': 'other\n', 'big.txt': 'other\n' });
    git('commit', '-q', '-am', 'other');
    git('checkout', '-q', 'main');
    writeFiles(repo, { 'f.txt': 'main\n', 'big.txt': 'main\n' });
    git('commit', '-q', '-am', 'main');
    expect(() => git('merge', 'other')).toThrow();
    // The conflicted big.txt grows past the limit while the person resolves.
    fs.writeFileSync(path.join(repo, 'big.txt'), 'x'.repeat(5000));
    const person = personState(repo, t.env);
    const store = await open(t, repo, 't1', 4096);
    const s1 = await store.snapshot('tasks/t1/1', null);
    expect(s1.skipped).toEqual([{ path: 'big.txt', reason: 'too_big' }]);
    expect(s1.files.map((f) => f.path)).toContain('f.txt');
    expect(personState(repo, t.env)).toEqual(person);
    expect(fs.existsSync(path.join(repo, '.git/MERGE_HEAD'))).toBe(true);
  });

  it('a repository without any commit yet (no index file): snapshots start from an empty index', async () => {
    const t = base();
    const repo = path.join(t.base, 'fresh');
    fs.mkdirSync(repo);
    gitIn(repo, t.env, 'init', '-q');
    writeFiles(repo, { 'a.txt': 'a\n' });
    const store = await open(t, repo);
    expect(store.kind).toBe('git');
    const s1 = await store.snapshot('tasks/t1/1', null);
    expect(s1.files).toEqual([{ path: 'a.txt', change: 'added' }]);
    expect(fs.existsSync(path.join(repo, '.git/index'))).toBe(false);
    expect(gitIn(repo, t.env, 'status', '--porcelain')).toBe('?? a.txt\n');
  });
});

describe('what a folder is, asked once for its tasks (issue 28, job starts)', () => {
  it('a plain folder made a repository after a task opened its store is a repository for the next task', async () => {
    const t = base();
    const root = path.join(t.base, 'plain');
    writeFiles(root, { 'a.txt': 'a\n' });
    expect((await open(t, root, 't1')).kind).toBe('plain');
    gitIn(root, t.env, 'init', '-q', '-b', 'main');
    gitIn(root, t.env, 'add', '-A');
    gitIn(root, t.env, 'commit', '-q', '-m', 'first');
    const next = await open(t, root, 't2');
    expect(next.kind).toBe('git');
    // A repository made above the folder counts as well.
    const inner = path.join(t.base, 'outer', 'inner');
    writeFiles(inner, { 'b.txt': 'b\n' });
    expect((await open(t, inner, 't3')).kind).toBe('plain');
    gitIn(path.join(t.base, 'outer'), t.env, 'init', '-q', '-b', 'main');
    expect((await open(t, inner, 't4')).kind).toBe('git');
  });
});

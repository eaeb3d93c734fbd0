// The snapshot store of a folder that is no repository (issue 22, point 1): a private bare repository in the data
// dir; .gitignore honoured; a nested repository, a big file and an unreadable one left out, listed, and never touched
// by a restore; a restore that cannot read a saved file stops before writing anything; file diffs; housekeeping.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitIn, type TempBase, tempBase, writeFiles } from '../../test-support/git-workspaces';
import { type GitSnapshotStore, openSnapshotStore } from './git-store';
import { checkpointDiskUsage, gcCheckpointStores, removeTaskIndex } from './housekeeping';
import { RestoreFailed } from './restore';
import { EMPTY_TREE } from './snapshot';

const bases: TempBase[] = [];
afterEach(() => {
  for (const b of bases.splice(0)) b.cleanup();
});

function plainFolder(files: Record<string, string | Buffer>) {
  const t = tempBase();
  bases.push(t);
  const ws = path.join(t.base, 'folder');
  fs.mkdirSync(ws);
  writeFiles(ws, files);
  return { t, ws, dataDir: path.join(t.base, 'data') };
}

async function open(ws: string, dataDir: string, maxFileBytes = 4096, taskId = 't1') {
  const store = await openSnapshotStore({ workspacePath: ws, dataDir, taskId, maxFileBytes });
  if (store.kind === 'off') throw new Error(store.note);
  return store as GitSnapshotStore;
}

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');

describe('snapshot store in a plain folder (issue 22)', () => {
  it('keeps its objects in a private repository in the data dir and round-trips; ignored files, a nested repository and a big file are never saved nor touched', async () => {
    const { t, ws, dataDir } = plainFolder({
      'a.txt': 'a\n',
      'lib/b.txt': 'b\n',
      '.gitignore': 'build/\n',
      'build/out.js': 'built\n',
      'big.dat': Buffer.alloc(10_000, 1),
    });
    const nested = path.join(ws, 'vendor/lib');
    fs.mkdirSync(nested, { recursive: true });
    gitIn(nested, t.env, 'init', '-q');
    writeFiles(nested, { 'inner.txt': 'inner\n' });

    const store = await open(ws, dataDir);
    expect(store.kind).toBe('plain');
    expect(fs.existsSync(path.join(ws, '.git'))).toBe(false);
    const repos = fs.readdirSync(path.join(dataDir, 'checkpoints/plain'));
    expect(repos).toHaveLength(1);

    const s1 = await store.snapshot('tasks/t1/1', null);
    expect(s1.files.map((f) => f.path).sort()).toEqual(['.gitignore', 'a.txt', 'lib/b.txt']);
    expect(s1.skipped).toEqual([
      { path: 'big.dat', reason: 'too_big' },
      { path: 'vendor/lib', reason: 'nested_repository' },
    ]);

    fs.writeFileSync(path.join(ws, 'a.txt'), 'A\n');
    fs.rmSync(path.join(ws, 'lib/b.txt'));
    fs.writeFileSync(path.join(ws, 'new.txt'), 'new\n');
    fs.writeFileSync(path.join(ws, 'build/out.js'), 'rebuilt\n');
    fs.writeFileSync(path.join(ws, 'big.dat'), Buffer.alloc(20_000, 2));
    fs.writeFileSync(path.join(nested, 'inner.txt'), 'inner changed\n');
    const s2 = await store.snapshot('tasks/t1/2', s1.commit);
    expect(s2.files).toEqual([
      { path: 'a.txt', change: 'modified' },
      { path: 'lib/b.txt', change: 'deleted' },
      { path: 'new.txt', change: 'added' },
    ]);

    expect(await store.restore(s1.commit, s2.commit)).toEqual({
      restored: ['a.txt', 'lib/b.txt'],
      removed: ['new.txt'],
    });
    expect(read(ws, 'a.txt')).toBe('a\n');
    expect(read(ws, 'lib/b.txt')).toBe('b\n');
    expect(fs.existsSync(path.join(ws, 'new.txt'))).toBe(false);
    // What was never saved is never touched: the ignored output, the big file, the nested repository.
    expect(read(ws, 'build/out.js')).toBe('rebuilt\n');
    expect(fs.readFileSync(path.join(ws, 'big.dat'))).toEqual(Buffer.alloc(20_000, 2));
    expect(read(nested, 'inner.txt')).toBe('inner changed\n');
    expect(fs.existsSync(path.join(nested, '.git/HEAD'))).toBe(true);
  });

  it('a big file that was saved while small is not overwritten or removed by a restore once it is skipped', async () => {
    const { ws, dataDir } = plainFolder({ 'data.csv': 'small\n' });
    const store = await open(ws, dataDir);
    const s1 = await store.snapshot('tasks/t1/1', null);
    fs.writeFileSync(path.join(ws, 'data.csv'), Buffer.alloc(8000, 3));
    const s2 = await store.snapshot('tasks/t1/2', s1.commit);
    expect(s2.skipped).toEqual([{ path: 'data.csv', reason: 'too_big' }]);
    expect(await store.restore(s1.commit, s2.commit)).toEqual({ restored: [], removed: [] });
    expect(fs.readFileSync(path.join(ws, 'data.csv'))).toEqual(Buffer.alloc(8000, 3));
  });

  it.skipIf(process.getuid?.() === 0)('an unreadable file is skipped and listed', async () => {
    const { ws, dataDir } = plainFolder({ 'ok.txt': 'ok\n', 'secret.txt': 'no\n' });
    fs.chmodSync(path.join(ws, 'secret.txt'), 0o000);
    const store = await open(ws, dataDir);
    const s1 = await store.snapshot('tasks/t1/1', null);
    expect(s1.skipped).toEqual([{ path: 'secret.txt', reason: 'unreadable' }]);
    expect(s1.files).toEqual([{ path: 'ok.txt', change: 'added' }]);
  });

  it('a saved copy that cannot be read stops the restore before anything is written, naming the file', async () => {
    const { t, ws, dataDir } = plainFolder({ 'keep.txt': 'unique content of keep\n', 'other.txt': 'other\n' });
    const store = await open(ws, dataDir);
    const s1 = await store.snapshot('tasks/t1/1', null);
    fs.writeFileSync(path.join(ws, 'keep.txt'), 'edited\n');
    fs.writeFileSync(path.join(ws, 'other.txt'), 'other edited\n');
    fs.writeFileSync(path.join(ws, 'created.txt'), 'created\n');
    const s2 = await store.snapshot('tasks/t1/2', s1.commit);
    // The saved copy of keep.txt is lost from the private repository (disk trouble).
    const [repo] = fs.readdirSync(path.join(dataDir, 'checkpoints/plain'));
    const gitDir = path.join(dataDir, 'checkpoints/plain', repo as string);
    const blob = gitIn(ws, { ...t.env, GIT_DIR: gitDir }, 'rev-parse', `${s1.tree}:keep.txt`).trim();
    fs.rmSync(path.join(gitDir, 'objects', blob.slice(0, 2), blob.slice(2)));

    const failed = store.restore(s1.commit, s2.commit);
    await expect(failed).rejects.toThrow(RestoreFailed);
    await expect(failed).rejects.toThrow(/keep\.txt.*nothing was changed/);
    expect(read(ws, 'keep.txt')).toBe('edited\n');
    expect(read(ws, 'other.txt')).toBe('other edited\n');
    expect(read(ws, 'created.txt')).toBe('created\n');
    // A file revert of another file still works.
    expect(await store.restore(s1.commit, s2.commit, ['other.txt'])).toEqual({ restored: ['other.txt'], removed: [] });
  });

  it('a restore never writes through a folder that became a symbolic link, and refuses paths outside the workspace', async () => {
    const { t, ws, dataDir } = plainFolder({ 'dir/f.txt': 'f\n' });
    const store = await open(ws, dataDir);
    const s1 = await store.snapshot('tasks/t1/1', null);
    const outside = path.join(t.base, 'outside');
    fs.mkdirSync(outside);
    fs.rmSync(path.join(ws, 'dir'), { recursive: true });
    fs.symlinkSync(outside, path.join(ws, 'dir'));
    const s2 = await store.snapshot('tasks/t1/2', s1.commit);
    // The symlink `dir` is itself a file of s2: restoring s1 removes it first, then writes dir/f.txt as a folder.
    await store.restore(s1.commit, s2.commit);
    expect(fs.lstatSync(path.join(ws, 'dir')).isDirectory()).toBe(true);
    expect(fs.readdirSync(outside)).toEqual([]);
    // A folder that became a link after the last snapshot: refused before anything changes.
    fs.writeFileSync(path.join(ws, 'dir/f.txt'), 'changed\n');
    fs.writeFileSync(path.join(ws, 'top.txt'), 'top\n');
    const s3 = await store.snapshot('tasks/t1/3', s1.commit);
    fs.rmSync(path.join(ws, 'dir'), { recursive: true });
    fs.symlinkSync(outside, path.join(ws, 'dir'));
    await expect(store.restore(s1.commit, s3.commit)).rejects.toThrow(
      /dir is now a symbolic link; nothing was changed/,
    );
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(read(ws, 'top.txt')).toBe('top\n');
    for (const bad of ['../x', '/etc/passwd', 'a/../../x', '']) {
      await expect(store.restore(s1.commit, s2.commit, [bad])).rejects.toThrow(/not a workspace-relative/);
    }
  });

  it('file diffs: a text file with its counts, a binary file without a diff', async () => {
    const { ws, dataDir } = plainFolder({ 't.txt': 'one\ntwo\n', 'b.bin': Buffer.from([0, 1, 2]) });
    const store = await open(ws, dataDir);
    const s1 = await store.snapshot('tasks/t1/1', null);
    fs.writeFileSync(path.join(ws, 't.txt'), 'one\n2\nthree\n');
    fs.writeFileSync(path.join(ws, 'b.bin'), Buffer.from([0, 9, 9, 9]));
    const s2 = await store.snapshot('tasks/t1/2', s1.commit);
    const text = await store.fileDiff(s1.commit, s2.commit, 't.txt');
    expect(text).toMatchObject({ binary: false, added: 2, removed: 1 });
    expect(text.diff).toContain('--- a/t.txt\n+++ b/t.txt\n');
    expect(text.diff).toContain('-two\n+2\n+three\n');
    expect(await store.fileDiff(s1.commit, s2.commit, 'b.bin')).toEqual({
      diff: '',
      binary: true,
      added: 0,
      removed: 0,
    });
  });

  it('housekeeping: refs of a task listed and dropped, objects collected, the task index removed, disk use counted', async () => {
    const { ws, dataDir } = plainFolder({ 'a.txt': 'a\n' });
    const store = await open(ws, dataDir);
    const s1 = await store.snapshot('tasks/t1/1', null);
    fs.writeFileSync(path.join(ws, 'a.txt'), 'x'.repeat(3000));
    const s2 = await store.snapshot('tasks/t1/2', s1.commit);
    const other = await open(ws, dataDir, 4096, 't2');
    const t2 = await other.snapshot('tasks/t2/1', null);
    expect(await store.listRefs('tasks/t1/')).toEqual([
      { ref: 'refs/maestro/tasks/t1/1', commit: s1.commit },
      { ref: 'refs/maestro/tasks/t1/2', commit: s2.commit },
    ]);
    const before = checkpointDiskUsage(dataDir);
    expect(before).toBeGreaterThan(0);
    await store.dropRefs(['refs/maestro/tasks/t1/1', 'tasks/t1/2']);
    expect(await store.listRefs('tasks/t1/')).toEqual([]);
    expect((await store.listRefs('tasks/')).map((r) => r.ref)).toEqual(['refs/maestro/tasks/t2/1']);
    removeTaskIndex(dataDir, 't1');
    expect(fs.existsSync(path.join(dataDir, 'checkpoints/index/t1'))).toBe(false);
    expect(await gcCheckpointStores(dataDir)).toEqual({ collected: 1, failed: [] });
    // The dropped snapshots' objects are gone; the other task's remain.
    await expect(store.changes(s1.commit, s2.commit)).rejects.toThrow(/git diff-tree failed/);
    expect(await other.changes(EMPTY_TREE, t2.commit)).toEqual([{ path: 'a.txt', change: 'added' }]);
    expect(() => removeTaskIndex(dataDir, '../x')).toThrow(/not a plain name/);
  });
});

describe('when there is no store (issue 22)', () => {
  it('the home folder itself and / are refused with a note', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-ckpt-data-'));
    try {
      for (const workspacePath of [os.homedir(), '/']) {
        const r = await openSnapshotStore({ workspacePath, dataDir, taskId: 't', maxFileBytes: 4096 });
        expect(r).toMatchObject({
          kind: 'off',
          reason: 'home_or_root',
          note: expect.stringMatching(/Checkpoints are off/),
        });
      }
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('without git on the PATH checkpoints are off (no_git) and nothing is created', async () => {
    const { ws, dataDir } = plainFolder({ 'a.txt': 'a\n' });
    const emptyBin = path.join(path.dirname(ws), 'empty-bin');
    fs.mkdirSync(emptyBin);
    const saved = process.env.PATH;
    process.env.PATH = emptyBin;
    try {
      const r = await openSnapshotStore({ workspacePath: ws, dataDir, taskId: 't', maxFileBytes: 4096 });
      expect(r).toMatchObject({ kind: 'off', reason: 'no_git', note: expect.stringMatching(/git was not found/) });
    } finally {
      process.env.PATH = saved;
    }
    expect(fs.existsSync(dataDir)).toBe(false);
  });
});

// A step's snapshot with fewer git processes (issue 22, point 1's step overhead): the commit written by the host, the
// changes taken from the capture's own look instead of a diff, no tree written when nothing changed. Each is checked
// against what git itself says: `git fsck` on the commits, a diff-tree of every pair of snapshots.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitIn, personRepo, type TempBase, tempBase, writeFiles } from '../../test-support/git-workspaces';
import { type GitSnapshotStore, openSnapshotStore } from './git-store';
import { taskIndexFile } from './locate';
import { skippedOf } from './snapshot';

const bases: TempBase[] = [];
afterEach(() => {
  for (const b of bases.splice(0)) b.cleanup();
});

async function open(t: TempBase, workspacePath: string, maxFileBytes = 1024) {
  const store = await openSnapshotStore({
    workspacePath,
    dataDir: path.join(t.base, 'data'),
    taskId: 't1',
    maxFileBytes,
  });
  if (store.kind === 'off') throw new Error(`no store: ${store.note}`);
  return store as GitSnapshotStore;
}

/** Steps that change the workspace in every way a capture's look must tell apart (or leave to a diff). */
const STEPS: ((root: string) => void)[] = [
  (r) => writeFiles(r, { 'a.txt': 'a two\n' }),
  (r) => writeFiles(r, { 'new/deep/n.txt': 'new\n', 'b.txt': 'b two\n' }),
  (r) => fs.rmSync(path.join(r, 'a.txt')),
  () => {},
  // Only touched: same content, new time (ls-files compares contents).
  (r) => fs.utimesSync(path.join(r, 'b.txt'), new Date(), new Date(Date.now() + 5000)),
  // A rename: a deletion and an addition, which only a diff pairs.
  (r) => fs.renameSync(path.join(r, 'docs/long.md'), path.join(r, 'docs/moved.md')),
  (r) => fs.chmodSync(path.join(r, 'b.txt'), 0o755),
  // Too big to keep: left out, the earlier copy stays.
  (r) => writeFiles(r, { 'b.txt': 'x'.repeat(4096), 'c.txt': 'see\n' }),
  (r) => writeFiles(r, { 'ignored.log': 'never\n', 'z.txt': 'last\n' }),
];

const FILES = {
  'a.txt': 'a\n',
  'b.txt': 'b\n',
  'docs/long.md': '# A document long enough for git to see the rename\n\nline two\nline three\n',
  '.gitignore': '*.log\n',
};

async function walk(store: GitSnapshotStore, root: string, gitDir: string, env: NodeJS.ProcessEnv) {
  let previous = (await store.snapshot('tasks/t1/0', null)).commit;
  const refs: { ref: string; commit: string }[] = [];
  for (const [i, step] of STEPS.entries()) {
    step(root);
    const captured = await store.capture();
    const snap = await store.seal(captured, `tasks/t1/${i + 1}`, previous);
    // What git's diff of the two snapshots says, renames paired: the seal must say the same.
    expect(snap.files, `step ${i}`).toEqual(await store.changes(previous, snap.commit));
    const text = gitIn(root, { ...env, GIT_DIR: gitDir }, 'cat-file', 'commit', snap.commit);
    expect(text).toContain(`tree ${snap.tree}\nparent ${previous}\n`);
    expect(skippedOf(text)).toEqual(snap.skipped);
    refs.push({ ref: `tasks/t1/${i + 1}`, commit: snap.commit });
    previous = snap.commit;
  }
  await store.keepRefs(refs);
  // Every object well formed and reachable from the refs (no missing tree or parent).
  gitIn(root, { ...env, GIT_DIR: gitDir }, 'fsck', '--strict', '--no-dangling', '--no-progress');
  return refs;
}

describe('a step snapshot without commit-tree and diff-tree (issue 22)', () => {
  it('in a git repository: each seal says what diff-tree says (edits, additions, a deletion, a touch, a rename, a mode, a file grown too big, an ignored file), and fsck passes', async () => {
    const t = tempBase();
    bases.push(t);
    const repo = personRepo(t, FILES);
    const store = await open(t, repo);
    const refs = await walk(store, repo, path.join(repo, '.git'), t.env);
    const last = refs.at(-1)?.commit as string;
    const ls = gitIn(repo, t.env, 'ls-tree', '-r', '--name-only', last).split('\n');
    expect(ls).toEqual(expect.arrayContaining(['b.txt', 'c.txt', 'z.txt', 'docs/moved.md', 'new/deep/n.txt']));
    expect(ls).not.toContain('ignored.log');
    // The kept copy of b.txt is its last one under the limit, executable.
    expect(gitIn(repo, t.env, 'ls-tree', last, 'b.txt')).toMatch(/^100755 blob /);
  });

  it('in a plain folder (a private repository): the same', async () => {
    const t = tempBase();
    bases.push(t);
    const root = path.join(t.base, 'plain');
    writeFiles(root, FILES);
    const store = await open(t, root);
    const gitDir = fs
      .readdirSync(path.join(t.base, 'data'), { recursive: true, encoding: 'utf8' })
      .find((p) => p.endsWith('.git') && fs.existsSync(path.join(t.base, 'data', p, 'HEAD')));
    await walk(store, root, path.join(t.base, 'data', gitDir as string), t.env);
  });

  it('a capture that finds nothing changed writes neither the index nor a tree; another writer of the index is noticed', async () => {
    const t = tempBase();
    bases.push(t);
    const repo = personRepo(t, FILES);
    const store = await open(t, repo);
    const first = await store.snapshot('tasks/t1/0', null);
    const indexFile = taskIndexFile(path.join(t.base, 'data'), 't1');
    const before = fs.statSync(indexFile, { bigint: true }).mtimeNs;
    const same = await store.capture();
    expect(same.tree).toBe(first.tree);
    expect(fs.statSync(indexFile, { bigint: true }).mtimeNs).toBe(before);
    // A second store of the same task (Settings' size limit changed) brings the index forward meanwhile: the first
    // store's idea of the index's tree is stale, so its next seal diffs instead of trusting its look.
    const other = await open(t, repo, 2048);
    writeFiles(repo, { 'a.txt': 'changed by the other\n' });
    const o = await other.snapshot('tasks/t1/o', first.commit);
    expect(o.files).toEqual([{ path: 'a.txt', change: 'modified' }]);
    writeFiles(repo, { 'c.txt': 'new\n' });
    const captured = await store.capture();
    const snap = await store.seal(captured, 'tasks/t1/1', first.commit);
    expect(snap.files).toEqual([
      { path: 'a.txt', change: 'modified' },
      { path: 'c.txt', change: 'added' },
    ]);
  });
});

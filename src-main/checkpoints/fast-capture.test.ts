// A step's capture made in-process (fast-capture.ts) tried against every change a step can make that a stat cache
// could miss: each capture's tree must be the tree git itself makes of the workspace (`git add -A` into a fresh index),
// and every snapshot must restore the workspace byte for byte. Most steps must stay in-process (counted); those it
// gives back to git must still be right.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitIn, personRepo, type TempBase, tempBase, writeFiles } from '../../test-support/git-workspaces';
import { type GitSnapshotStore, openSnapshotStore } from './git-store';
import { plainReposDir } from './locate';
import { EMPTY_TREE } from './snapshot';

const bases: TempBase[] = [];
afterEach(() => {
  for (const b of bases.splice(0)) b.cleanup();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sh = (cwd: string, script: string) => execFileSync('sh', ['-c', script], { cwd, stdio: 'pipe' });

const FILES = {
  'a.txt': 'alpha\n',
  'b.txt': 'bravo\n',
  'c.txt': 'charlie\n',
  'd.txt': 'delta\n',
  'run.sh': 'echo hi\n',
  'src/one.ts': 'export const one = 1;\n',
  'src/deep/two.ts': 'export const two = 2;\n',
  'notes/keep.md': '# kept\n',
  '.gitignore': '*.log\nnode_modules/\nbuild/\n',
};

/** A step: what it does to the workspace, and whether the capture after it must be made without git. */
interface Step {
  name: string;
  run: (root: string) => void;
  fast: boolean;
}

const STEPS: Step[] = [
  // Same size, then the old modification time put back (ns): only the change time tells.
  {
    name: 'a command rewrites a file keeping its size and mtime (touch -d)',
    fast: true,
    run: (r) => {
      const st = fs.statSync(path.join(r, 'a.txt'), { bigint: true });
      const at = `${st.mtimeNs / 1_000_000_000n}.${String(st.mtimeNs % 1_000_000_000n).padStart(9, '0')}`;
      sh(r, `printf 'ALPHA\\n' > a.txt && touch -m -d @${at} a.txt`);
      expect(fs.statSync(path.join(r, 'a.txt'), { bigint: true }).mtimeNs).toBe(st.mtimeNs);
    },
  },
  {
    name: 'a write in the same second as the last capture',
    fast: true,
    run: (r) => sh(r, "printf 'BRAVO\\n' > b.txt"),
  },
  { name: 'again, same size, same second', fast: true, run: (r) => sh(r, "printf 'bRaVo\\n' > b.txt") },
  { name: 'a new file in a known folder', fast: true, run: (r) => writeFiles(r, { 'src/three.ts': 'three\n' }) },
  { name: 'a new ignored file', fast: true, run: (r) => writeFiles(r, { 'src/debug.log': 'noise\n' }) },
  {
    name: 'a new file in a new ignored folder',
    fast: true,
    run: (r) => writeFiles(r, { 'node_modules/pkg/index.js': 'x\n' }),
  },
  { name: 'a new file in a new folder', fast: false, run: (r) => writeFiles(r, { 'lib/deep/x.ts': 'x\n' }) },
  {
    name: 'delete and recreate with the same size',
    fast: true,
    run: (r) => sh(r, "rm c.txt && printf 'CHARLIE\\n' > c.txt"),
  },
  { name: 'chmod +x', fast: true, run: (r) => sh(r, 'chmod +x run.sh') },
  { name: 'a symbolic link', fast: true, run: (r) => sh(r, 'ln -s a.txt link') },
  { name: 'the link pointed elsewhere', fast: true, run: (r) => sh(r, 'ln -sfn b.txt link') },
  { name: 'a rename', fast: true, run: (r) => sh(r, 'mv src/one.ts src/uno.ts') },
  { name: 'a deletion', fast: true, run: (r) => sh(r, 'rm notes/keep.md') },
  {
    name: 'a file replaced by a folder',
    fast: false,
    run: (r) => sh(r, 'rm d.txt && mkdir d.txt && echo in > d.txt/in'),
  },
  { name: 'an ignored folder made', fast: true, run: (r) => writeFiles(r, { 'build/out.js': 'out\n' }) },
  // `build/` ignores only a folder: a file of that name is saved.
  { name: 'the ignored folder replaced by a file', fast: true, run: (r) => sh(r, 'rm -r build && echo file > build') },
  { name: 'a file grown too big (skipped)', fast: false, run: (r) => writeFiles(r, { 'b.txt': 'x'.repeat(5000) }) },
  { name: 'the big file small again', fast: false, run: (r) => writeFiles(r, { 'b.txt': 'small\n' }) },
  {
    name: '.gitignore changed: an ignored file now saved',
    fast: false,
    run: (r) => writeFiles(r, { '.gitignore': 'node_modules/\nbuild/\n' }),
  },
  {
    name: 'an edit through a folder replaced by a symbolic link',
    fast: false,
    run: (r) => sh(r, 'mv src/deep src/deep2 && ln -s deep2 src/deep'),
  },
  { name: 'nothing', fast: true, run: () => {} },
];

/**
 * The tree git makes of the workspace through an index of its own holding `base` (no stat data: every file hashed),
 * skipped paths left as they were there.
 */
function gitsTree(root: string, env: NodeJS.ProcessEnv, base: string, skipped: readonly string[]): string {
  const index = path.join(path.dirname(root), `oracle-${process.pid}`);
  fs.rmSync(index, { force: true });
  const e = { ...env, GIT_INDEX_FILE: index };
  gitIn(root, e, 'read-tree', base);
  gitIn(root, e, 'add', '-A', '--', '.', ...skipped.map((p) => `:(exclude,literal)${p}`));
  const tree = gitIn(root, e, 'write-tree').trim();
  fs.rmSync(index, { force: true });
  return tree;
}

/** Every saved file's bytes, mode and link target (what a restore must bring back), by path. */
function savedFiles(root: string, env: NodeJS.ProcessEnv, tree: string, skipped: readonly string[]) {
  const files = new Map<string, string>();
  for (const line of gitIn(root, env, 'ls-tree', '-r', '-z', tree).split('\0')) {
    if (line === '') continue;
    const rel = line.slice(line.indexOf('\t') + 1);
    if (skipped.includes(rel)) continue;
    const abs = path.join(root, rel);
    const st = fs.lstatSync(abs);
    const body = st.isSymbolicLink() ? `-> ${fs.readlinkSync(abs)}` : fs.readFileSync(abs).toString('base64');
    files.set(rel, `${st.isSymbolicLink() ? 'link' : st.mode & 0o100 ? 'exec' : 'file'} ${body}`);
  }
  return files;
}

const readTree = (root: string, env: NodeJS.ProcessEnv, tree: string, file: string) =>
  gitIn(root, env, 'cat-file', 'blob', `${tree}:${file}`);

async function run(t: TempBase, root: string, env: NodeJS.ProcessEnv) {
  writeFiles(root, { 'd.txt': 'delta, edited by the person\n', 'mine.txt': 'untracked\n' });
  // Stat data this old is trusted: the fast path compares, not hashes.
  await sleep(2100);
  const store = (await openSnapshotStore({
    workspacePath: root,
    dataDir: path.join(t.base, 'data'),
    taskId: 't1',
    maxFileBytes: 1024,
  })) as GitSnapshotStore;
  const envOf = () => {
    if (store.kind === 'git') return env;
    const [repo] = fs.readdirSync(plainReposDir(path.join(t.base, 'data')));
    return {
      ...env,
      GIT_DIR: path.join(plainReposDir(path.join(t.base, 'data')), repo as string),
      GIT_WORK_TREE: root,
    };
  };
  const first = await store.snapshot('tasks/t1/0', null);
  // The first capture: the person's own edit and new file in it, as git makes it from nothing.
  expect(first.tree).toBe(gitsTree(root, envOf(), EMPTY_TREE, []));
  expect(readTree(root, envOf(), first.tree, 'd.txt')).toBe('delta, edited by the person\n');
  expect(readTree(root, envOf(), first.tree, 'mine.txt')).toBe('untracked\n');
  // In a repository it is made from the person's index, without git's look (in a plain folder git makes it).
  expect(store.captureCounts).toEqual(store.kind === 'git' ? { fast: 1, git: 0 } : { fast: 0, git: 1 });
  let previous = first.commit;
  let previousTree = first.tree;
  const kept: { name: string; commit: string; tree: string; files: Map<string, string>; skipped: string[] }[] = [];
  for (const step of STEPS) {
    const before = store.captureCounts.fast;
    step.run(root);
    const snap = await store.seal(await store.capture(), `tasks/t1/${kept.length + 1}`, previous);
    const e = envOf();
    const skipped = snap.skipped.map((s) => s.path);
    expect(snap.tree, step.name).toBe(gitsTree(root, e, previousTree, skipped));
    if (step.fast) expect(store.captureCounts.fast, `${step.name}: made in-process`).toBe(before + 1);
    // What the seal says changed is what git's diff of the two says.
    expect(snap.files, step.name).toEqual(await store.changes(previous, snap.commit));
    kept.push({
      name: step.name,
      commit: snap.commit,
      tree: snap.tree,
      files: savedFiles(root, e, snap.tree, []),
      skipped,
    });
    previous = snap.commit;
    previousTree = snap.tree;
  }
  // Back through every snapshot: the saved files as they were, byte for byte; then forward to the last again.
  let current = previous;
  for (const k of [...kept].reverse().concat(kept.at(-1) ?? [])) {
    await store.restore(k.commit, current);
    const now = await store.snapshot('tasks/t1/now', current);
    // Skipped files are never touched by a restore: the rest is compared on disk.
    const skipped = [...k.skipped, ...now.skipped.map((s) => s.path)];
    if (skipped.length === 0) expect(now.tree, `restored to: ${k.name}`).toBe(k.tree);
    const expected = new Map([...k.files].filter(([p]) => !skipped.includes(p)));
    expect(savedFiles(root, envOf(), now.tree, skipped), `restored to: ${k.name}`).toEqual(expected);
    current = now.commit;
  }
  return store;
}

describe('a step capture made in-process (issue 22, step overhead)', () => {
  it('in a git repository: every change a step makes (a rewrite keeping size and mtime, writes in the same second, new files in new ignored and unignored folders, delete and recreate, chmod, symbolic links, a file replaced by a folder, …) is in the capture, as git sees it, and restores byte for byte', async () => {
    const t = tempBase();
    bases.push(t);
    const repo = personRepo(t, FILES);
    const store = await run(t, repo, t.env);
    expect(store.captureCounts.fast).toBeGreaterThanOrEqual(STEPS.filter((s) => s.fast).length);
  }, 120_000);

  it('in a plain folder (a private repository): the same', async () => {
    const t = tempBase();
    bases.push(t);
    const root = path.join(t.base, 'plain');
    writeFiles(root, FILES);
    fs.chmodSync(path.join(root, 'run.sh'), 0o644);
    await run(t, root, t.env);
  }, 120_000);
});

describe('a new task of a folder that other tasks used (issue 28, job starts)', () => {
  it("in a plain folder, starts from the folder's last task's index: its first capture is made in-process and is the tree git makes of the workspace as it is now; a folder of another data dir is not", async () => {
    const t = tempBase();
    bases.push(t);
    const root = path.join(t.base, 'plain');
    writeFiles(root, FILES);
    const dataDir = path.join(t.base, 'data');
    const open = async (taskId: string, data = dataDir) =>
      (await openSnapshotStore({ workspacePath: root, dataDir: data, taskId, maxFileBytes: 1024 })) as GitSnapshotStore;
    const first = await open('t1');
    await first.snapshot('tasks/t1/0', null);
    expect(first.captureCounts).toEqual({ fast: 0, git: 1 });
    // What happened in the folder between the two tasks: an edit keeping the size, a new file, a deletion, an
    // ignored file; and then stat data old enough to be trusted.
    sh(root, "printf 'ALPHA\\n' > a.txt && rm c.txt && echo new > src/new.ts && echo noise > src/x.log");
    await sleep(2100);

    const second = await open('t2');
    const snap = await second.snapshot('tasks/t2/0', null);
    expect(second.captureCounts).toEqual({ fast: 1, git: 0 });
    const [repo] = fs.readdirSync(plainReposDir(dataDir));
    const env = { ...t.env, GIT_DIR: path.join(plainReposDir(dataDir), repo as string), GIT_WORK_TREE: root };
    expect(snap.tree).toBe(gitsTree(root, env, EMPTY_TREE, []));
    expect(readTree(root, env, snap.tree, 'a.txt')).toBe('ALPHA\n');
    expect(readTree(root, env, snap.tree, 'src/new.ts')).toBe('new\n');
    expect(() => readTree(root, env, snap.tree, 'c.txt')).toThrow();
    // The second task's index is its own: the first task's captures go on from theirs.
    sh(root, 'echo more > src/more.ts');
    const again = await first.snapshot('tasks/t1/1', null);
    expect(readTree(root, env, again.tree, 'src/more.ts')).toBe('more\n');

    // Another data dir's private repository has its own objects: nothing of this one is started from.
    const elsewhere = await open('t3', path.join(t.base, 'data2'));
    await elsewhere.snapshot('tasks/t3/0', null);
    expect(elsewhere.captureCounts).toEqual({ fast: 0, git: 1 });
  }, 60_000);
});

// Benchmark of the checkpoint snapshot store (issue 22): on a generated 10,000-file repository (plus the 3,840
// ignored files a checkout holds: node_modules, dist, logs) against a 10-file one, in the same run, each as a git
// repository (objects in its own .git under refs/maestro/) and as a plain folder (a private repository in the data
// dir): the first snapshot of a task (target ≤ 3 s), later snapshots after a small change (p95 target ≤ 300 ms), a
// restore of what those changed (target ≤ 2 s), and the disk growth per snapshot against the bytes changed (target ≈
// 1). Medians over rounds, ratios of the big repository to the small one.
//
// Then a step's overhead with checkpoints against without, through the engine (checkpoints-step.ts; target ≤ 1.2× on
// the 10-file repository).
//
// Run: npm run bench:checkpoints

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type GitSnapshotStore, openSnapshotStore } from '../src-main/checkpoints/git-store';
import { taskIndexFile } from '../src-main/checkpoints/locate';
import type { SnapshotStore } from '../src-main/checkpoints/types';
import { runHostGit } from '../src-main/workspace/host-git';
import { measureStepOverhead } from './checkpoints-step';
import { buildTree } from './tools-tree';

const FIRST_ROUNDS = 3;
const LATER_ROUNDS = 40;
const RESTORE_ROUNDS = 3;
const MAX_FILE_BYTES = 10 * 1024 * 1024;

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const p95 = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1] as number;
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });
const verdict = (ok: boolean) => (ok ? 'OK' : 'MISSED');

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
};
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env: { ...GIT_ENV, HOME: cwd }, stdio: 'pipe', maxBuffer: 256 * 1024 * 1024 });

/** Bytes of every file below `dir`. */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const d of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (d.isFile()) total += fs.statSync(path.join(d.parentPath, d.name)).size;
  }
  return total;
}

export interface Workspace {
  label: string;
  kind: 'git' | 'plain';
  root: string;
  /** Where the snapshots' objects grow. */
  objects: (dataDir: string) => string;
}

function smallTree(root: string): void {
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  for (let i = 0; i < 10; i++) {
    fs.writeFileSync(
      path.join(root, i < 6 ? `src/file-${i}.ts` : `note-${i}.md`),
      `// file ${i}\n${'x = 1;\n'.repeat(200)}`,
    );
  }
}

/** The same files as a plain folder and as a git repository with a commit and a settled index. */
function workspaces(base: string, name: string, build: (root: string) => void): Workspace[] {
  const plain = path.join(base, `${name}-plain`);
  fs.mkdirSync(plain);
  build(plain);
  const repo = path.join(base, `${name}-git`);
  fs.cpSync(plain, repo, { recursive: true });
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  // No automatic gc: on 10,000 new loose objects the commit would start one in the background, whose packs appear
  // and vanish under the disk-growth figure (and under the clean-up) as the bench goes on.
  git(repo, '-c', 'gc.auto=0', 'commit', '-q', '-m', 'generated');
  return [
    { label: `${name} git`, kind: 'git', root: repo, objects: () => path.join(repo, '.git', 'objects') },
    {
      label: `${name} plain`,
      kind: 'plain',
      root: plain,
      objects: (dataDir) => path.join(dataDir, 'checkpoints', 'plain'),
    },
  ];
}

async function open(ws: Workspace, dataDir: string, taskId: string): Promise<SnapshotStore> {
  const store = await openSnapshotStore({ workspacePath: ws.root, dataDir, taskId, maxFileBytes: MAX_FILE_BYTES });
  if (store.kind === 'off') throw new Error(`${ws.label}: ${store.note}`);
  if (store.kind !== ws.kind) throw new Error(`${ws.label}: opened as ${store.kind}`);
  return store;
}

/** Tracked files to edit in the later rounds (not ignored ones). */
function editable(root: string): string[] {
  const files: string[] = [];
  for (const d of fs.readdirSync(root, { withFileTypes: true, recursive: true })) {
    const rel = path.relative(root, path.join(d.parentPath, d.name));
    if (d.isFile() && /\.(ts|tsx|md)$/.test(d.name) && !/^(node_modules|dist|\.git)\//.test(rel)) files.push(rel);
  }
  return files.sort();
}

/** One `git version` as the host runs git: what a process costs on this machine right now. */
async function spawnMs(): Promise<number> {
  const t0 = performance.now();
  await runHostGit(['version'], { cwd: os.tmpdir() });
  return performance.now() - t0;
}

export interface Figures {
  /** `git version` times taken between the later snapshots (the machine's load at that moment). */
  spawn: number[];
  first: number[];
  later: number[];
  restore: number[];
  /** Per later snapshot: objects bytes added / bytes of the files changed. */
  growth: number[];
  changedBytes: number[];
  /** Of the later snapshots' captures, how many were made in-process (fast-capture.ts) and how many by git. */
  captures: { fast: number; git: number };
}

async function measure(ws: Workspace, base: string): Promise<Figures> {
  const dataDir = path.join(base, `data-${ws.label.replace(/\W+/g, '-')}`);
  const figures: Figures = {
    spawn: [],
    first: [],
    later: [],
    restore: [],
    growth: [],
    changedBytes: [],
    captures: { fast: 0, git: 0 },
  };
  // The first snapshot of a new task: a new task's index each round. The round's index is removed after it: a new
  // task of a plain folder starts from the folder's last task's index when there is one (then its first capture is a
  // later one's), and this figure is the task that has none to start from.
  for (let r = 0; r < FIRST_ROUNDS; r++) {
    const store = await open(ws, dataDir, `first-${r}`);
    const s = await store.snapshot(`bench/first-${r}`, null);
    figures.first.push(s.ms);
    fs.rmSync(taskIndexFile(dataDir, `first-${r}`), { force: true });
  }
  const store = await open(ws, dataDir, 'later');
  const start = await store.snapshot('bench/later/0', null);
  const files = editable(ws.root);
  let previous = start.commit;
  const counted = { ...(store as GitSnapshotStore).captureCounts };
  for (let r = 1; r <= LATER_ROUNDS; r++) {
    // A small change: one file edited, one created (what an edit step and a command leave).
    const edited = files[(r * 7919) % files.length] as string;
    fs.appendFileSync(path.join(ws.root, edited), `// round ${r}\n`);
    const created = path.join(ws.root, `bench-created-${r}.txt`);
    fs.writeFileSync(created, `created in round ${r}\n${'y'.repeat(500)}\n`);
    const changed = fs.statSync(path.join(ws.root, edited)).size + fs.statSync(created).size;
    const before = bytesUnder(ws.objects(dataDir));
    const s = await store.snapshot(`bench/later/${r}`, previous);
    figures.growth.push((bytesUnder(ws.objects(dataDir)) - before) / changed);
    figures.changedBytes.push(changed);
    figures.later.push(s.ms);
    figures.spawn.push(await spawnMs());
    previous = s.commit;
  }
  const counts = (store as GitSnapshotStore).captureCounts;
  figures.captures = { fast: counts.fast - counted.fast, git: counts.git - counted.git };
  // Restore: back to the start (edits undone, created files removed) and forward again.
  let [from, to] = [previous, start.commit];
  for (let r = 0; r < RESTORE_ROUNDS * 2; r++) {
    const t0 = performance.now();
    await store.restore(to, from);
    figures.restore.push(performance.now() - t0);
    [from, to] = [to, from];
  }
  return figures;
}

function report(label: string, f: Figures): void {
  console.log(
    `  ${label.padEnd(16)} git process ${fmt(median(f.spawn))} ms | first ${fmt(median(f.first)).padStart(5)} ms | later p50 ${fmt(median(f.later)).padStart(4)} ms, p95 ${fmt(p95(f.later)).padStart(4)} ms | restore ${fmt(median(f.restore)).padStart(4)} ms (${LATER_ROUNDS * 2} files) | disk growth ${fmt(median(f.growth), 2)}× the ${fmt(median(f.changedBytes))} bytes changed | captures in-process ${f.captures.fast}, by git ${f.captures.git}`,
  );
}

async function main(): Promise<void> {
  const started = Date.now();
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-bench-ckpt-')));
  try {
    const version = execFileSync('git', ['version']).toString().trim();
    console.log(`checkpoints bench: ${os.cpus().length} CPUs, ${version}`);
    let stats = { files: 0, bytes: 0 };
    const big = workspaces(base, '10k', (root) => {
      stats = buildTree(root, 10_000);
    });
    const small = workspaces(base, '10', smallTree);
    console.log(
      `  10k: ${fmt(stats.files)} files, ${fmt(stats.bytes / 1e6, 1)} MB, plus ignored node_modules/dist/logs; 10: 10 files`,
    );
    const figures = new Map<string, Figures>();
    // Small and big alternate so neither always runs on a warmer machine.
    for (const ws of [small[0], big[0], small[1], big[1]] as Workspace[]) {
      const f = await measure(ws, base);
      figures.set(ws.label, f);
      report(ws.label, f);
    }
    for (const kind of ['git', 'plain'] as const) {
      const b = figures.get(`10k ${kind}`) as Figures;
      const s = figures.get(`10 ${kind}`) as Figures;
      console.log(
        `${kind}: first snapshot ${fmt(median(b.first))} ms on 10,000 files vs ${fmt(median(s.first))} ms on 10, ratio ${fmt(median(b.first) / median(s.first), 1)} (target ≤ 3,000 ms) ${verdict(median(b.first) <= 3000)}`,
      );
      console.log(
        `${kind}: later snapshot p95 ${fmt(p95(b.later))} ms on 10,000 files vs ${fmt(p95(s.later))} ms on 10, ratio ${fmt(p95(b.later) / p95(s.later), 1)} (target ≤ 300 ms) ${verdict(p95(b.later) <= 300)}`,
      );
      console.log(
        `${kind}: restore ${fmt(median(b.restore))} ms on 10,000 files vs ${fmt(median(s.restore))} ms on 10, ratio ${fmt(median(b.restore) / median(s.restore), 1)} (target ≤ 2,000 ms) ${verdict(median(b.restore) <= 2000)}`,
      );
      console.log(
        `${kind}: disk growth per snapshot ${fmt(median(b.growth), 2)}× the bytes changed on 10,000 files, ${fmt(median(s.growth), 2)}× on 10 (target ≈ 1; loose zlib objects plus the trees on the changed paths)`,
      );
    }
    const spawns = [...figures.values()].flatMap((f) => f.spawn);
    const s10 = figures.get('10 git') as Figures;
    console.log(
      `one git process (git version) costs ${fmt(median(spawns))} ms here (median; p95 ${fmt(p95(spawns))} ms): a later snapshot on 10 files is ${fmt(median(s10.later) / median(spawns), 1)} of them (7 run one after another)`,
    );
    await measureStepOverhead();
    console.log(`bench took ${fmt((Date.now() - started) / 1000, 1)} s`);
  } finally {
    // A git still finishing in the background must not hide the bench's own error.
    fs.rmSync(base, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

void main();

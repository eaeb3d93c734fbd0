// Where a workspace's snapshots go: the workspace's own repository when it is inside a git work tree, otherwise a
// private bare repository in the data dir; none for the home folder itself or `/`, or when git is missing or too old.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runHostGit } from '../workspace/host-git';
import type { ObjectDb } from './loose-object';
import { lookAtConfig } from './store-git';
import type { NoStore } from './types';

/** `git add --pathspec-from-file` (a first snapshot of many files) came with git 2.26. */
const MIN_GIT: readonly [number, number] = [2, 26];

export interface Located {
  kind: 'git' | 'plain';
  gitDir: string;
  workTree: string;
  /** The workspace's real path. */
  workspace: string;
  prefix: string;
  /** The person's index file (git mode), copied to start the task's index. */
  personIndex: string | null;
  /** Where refs go (a linked worktree's are its main repository's): the git dir itself in `plain` mode. */
  commonDir: string;
  /** Where loose objects go and their hash, when the same look told (git mode); else the store asks git later. */
  objects: ObjectDb | null;
  /** The store's look at the repository's config (store-git.ts), made with the same look (git mode). */
  config: string | null;
}

/** The folder of every checkpoint file below the data dir. */
export const checkpointsDir = (dataDir: string) => path.join(dataDir, 'checkpoints');
export const plainReposDir = (dataDir: string) => path.join(checkpointsDir(dataDir), 'plain');
export const indexesDir = (dataDir: string) => path.join(checkpointsDir(dataDir), 'index');

/** The private repository of a folder that is no repository (`workspace`: its real path). */
export const plainRepoOf = (dataDir: string, workspace: string) =>
  path.join(plainReposDir(dataDir), `${createHash('sha256').update(workspace).digest('hex').slice(0, 24)}.git`);

const TASK_ID = /^[A-Za-z0-9_-]{1,128}$/;
/** The task's index file; the task id must be a plain name (it becomes a file name). */
export function taskIndexFile(dataDir: string, taskId: string): string {
  if (!TASK_ID.test(taskId)) throw new Error(`checkpoints: task id ${JSON.stringify(taskId)} is not a plain name`);
  return path.join(indexesDir(dataDir), taskId);
}

const off = (reason: NoStore['reason'], note: string): NoStore => ({ kind: 'off', reason, note });

/**
 * How long what a folder was found to be is taken as said, as long as it still holds at a glance (stillSo): each new
 * task of a folder asked git the same questions another task had just asked. The config look keeps as long.
 */
const LOCATED_FRESH_MS = 10_000;
const recent = new Map<string, { at: number; located: Located }>();

export async function locateStore(workspacePath: string, dataDir: string): Promise<Located | NoStore> {
  const key = `${dataDir}\0${workspacePath}`;
  const now = performance.now();
  const seen = recent.get(key);
  // The config look it carries is as old as the answer: the store asks for its own (store-git.ts keeps those fresh).
  if (seen && now - seen.at < LOCATED_FRESH_MS && stillSo(seen.located)) return { ...seen.located, config: null };
  const located = await lookUp(workspacePath, dataDir);
  if (located.kind === 'off') recent.delete(key);
  else recent.set(key, { at: now, located });
  return located;
}

/** A repository's git dir is still there; a folder outside any has none made since (no `.git` up to the root). */
function stillSo(located: Located): boolean {
  if (located.kind === 'git') return fs.existsSync(located.gitDir);
  for (let dir = located.workspace; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, '.git'))) return false;
    if (path.dirname(dir) === dir) return true;
  }
}

async function lookUp(workspacePath: string, dataDir: string): Promise<Located | NoStore> {
  let workspace: string;
  try {
    workspace = fs.realpathSync(workspacePath);
    if (!fs.statSync(workspace).isDirectory()) throw new Error('not a folder');
  } catch (e) {
    return off(
      'unusable',
      `Checkpoints are off: the workspace ${workspacePath} cannot be read (${(e as Error).message}).`,
    );
  }
  const home = safeRealpath(os.homedir());
  if (workspace === path.parse(workspace).root || workspace === home) {
    return off(
      'home_or_root',
      `Checkpoints are off: the workspace is ${workspace === home ? 'your home folder' : 'the root folder'} itself, too much to snapshot. Pick a project folder to have them.`,
    );
  }
  // Asked at once (each process is a step's wait at a task's first checkpoint): the answers about the folder count
  // only for a git new enough, the config only in a repository. Failing to start says git is missing (the version
  // is remembered).
  const [version, r, config] = await Promise.all([
    gitVersion(),
    runHostGit(
      [
        'rev-parse',
        '--is-inside-work-tree',
        '--absolute-git-dir',
        '--show-toplevel',
        '--git-common-dir',
        '--git-path',
        'objects',
        '--show-object-format',
      ],
      { cwd: workspace },
    ).catch(() => null),
    lookAtConfig(workspace).catch(() => null),
  ]);
  if (version === null || r === null) {
    return off('no_git', 'Checkpoints are off: git was not found on this machine. Install git to have them.');
  }
  const v = /(\d+)\.(\d+)/.exec(version);
  if (!v || Number(v[1]) < MIN_GIT[0] || (Number(v[1]) === MIN_GIT[0] && Number(v[2]) < MIN_GIT[1])) {
    return off('unusable', `Checkpoints are off: ${version.trim()} is older than git ${MIN_GIT.join('.')}.`);
  }
  const [inside, gitDir, top, common, objects, format] = r.stdout.split('\n');
  if (r.code === 0 && inside === 'true' && gitDir && top && common) {
    const workTree = safeRealpath(top);
    const rel = path.relative(workTree, workspace);
    const objectsDir = objects ? path.resolve(workspace, objects) : null;
    return {
      kind: 'git',
      gitDir,
      workTree,
      workspace,
      prefix: rel === '' ? '' : `${rel.split(path.sep).join('/')}/`,
      personIndex: path.join(gitDir, 'index'),
      commonDir: path.resolve(workspace, common),
      config,
      objects:
        objectsDir && (format === 'sha1' || format === 'sha256') && fs.existsSync(objectsDir)
          ? { dir: objectsDir, format }
          : null,
    };
  }
  if (r.code === 0 && inside === 'false') {
    return off('unusable', `Checkpoints are off: the workspace ${workspace} is inside a git folder, not a work tree.`);
  }
  const repo = plainRepoOf(dataDir, workspace);
  return {
    kind: 'plain',
    gitDir: repo,
    workTree: workspace,
    workspace,
    prefix: '',
    personIndex: null,
    commonDir: repo,
    objects: null,
    config: null,
  };
}

let knownVersion: Promise<string | null> | null = null;
/**
 * `git version`, asked once per process while git answers (a process is a step's wait at each task's first
 * checkpoint); asked again after git was not found, so installing it turns checkpoints on for the next task.
 */
function gitVersion(): Promise<string | null> {
  knownVersion ??= runHostGit(['version'], { cwd: os.tmpdir() }).then(
    (r) => r.stdout,
    () => null,
  );
  const asked = knownVersion;
  void asked.then((v) => {
    if (v === null && knownVersion === asked) knownVersion = null;
  });
  return asked;
}

function safeRealpath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

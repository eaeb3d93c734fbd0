// Real git repositories and plain folders in temp dirs for the checkpoint tests and bench: a person's repository
// with commits, a stash, a staged change, and hooks, an fsmonitor and a filter driver that would leave marker files
// if any of them ran; and what the person's git state is, to compare before and after.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TempBase {
  base: string;
  /** Every git here runs with this HOME (no global config of the machine) and no system config. */
  env: NodeJS.ProcessEnv;
  cleanup: () => void;
}

export function tempBase(prefix = 'maestro-ckpt-'): TempBase {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  const env = {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: '1',
    HOME: base,
    GIT_AUTHOR_NAME: 'Person',
    GIT_AUTHOR_EMAIL: 'person@example.com',
    GIT_COMMITTER_NAME: 'Person',
    GIT_COMMITTER_EMAIL: 'person@example.com',
  };
  return { base, env, cleanup: () => fs.rmSync(base, { recursive: true, force: true }) };
}

export function gitIn(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 256 * 1024 * 1024,
  }).toString('utf8');
}

/** Writes files (path → content) below `root`, creating folders. */
export function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  }
}

/** A repository with two commits of `files`, then a stash entry and a staged change, as a person leaves one. */
export function personRepo(t: TempBase, files: Record<string, string | Buffer>, name = 'repo'): string {
  const repo = path.join(t.base, name);
  fs.mkdirSync(repo);
  const git = (...args: string[]) => gitIn(repo, t.env, ...args);
  git('init', '-q', '-b', 'main');
  writeFiles(repo, files);
  git('add', '-A');
  git('commit', '-q', '-m', 'first');
  git('branch', 'feature');
  writeFiles(repo, { 'stashed.txt': 'work in progress\n' });
  git('add', 'stashed.txt');
  git('stash', '-q');
  return repo;
}

/** Hooks, a hooks path, an fsmonitor and a filter driver that each touch a marker file in `markers` when run. */
export function armRepo(t: TempBase, repo: string): string {
  const markers = path.join(t.base, 'markers');
  fs.mkdirSync(markers, { recursive: true });
  const script = (name: string, body = 'cat') => {
    const p = path.join(t.base, `${name}.sh`);
    fs.writeFileSync(p, `#!/bin/sh\ntouch ${path.join(markers, name)}\n${body}\n`);
    fs.chmodSync(p, 0o755);
    return p;
  };
  const hooks = path.join(repo, '.git', 'hooks');
  fs.mkdirSync(hooks, { recursive: true });
  for (const hook of [
    'pre-commit',
    'post-commit',
    'post-checkout',
    'reference-transaction',
    'post-index-change',
    'pre-auto-gc',
  ]) {
    fs.writeFileSync(path.join(hooks, hook), `#!/bin/sh\ntouch ${path.join(markers, hook)}\n`);
    fs.chmodSync(path.join(hooks, hook), 0o755);
  }
  fs.appendFileSync(
    path.join(repo, '.git', 'config'),
    `[core]\n\tfsmonitor = ${script('fsmonitor', 'exit 0')}\n\tpager = ${script('pager')}\n` +
      `[filter "evil"]\n\tclean = ${script('clean')}\n\tsmudge = ${script('smudge')}\n\tprocess = ${script('process')}\n\trequired = true\n` +
      `[commit]\n\tgpgSign = true\n[gpg]\n\tprogram = ${script('gpg', 'exit 1')}\n`,
  );
  return markers;
}

/** The armed repository's traps turned off, for the test's own look at the person's state. */
const QUIET = [
  'core.fsmonitor=false',
  'filter.evil.clean=cat',
  'filter.evil.smudge=cat',
  'filter.evil.process=',
].flatMap((c) => ['-c', c]);

/** What of a person's git state a checkpoint must never change. */
export function personState(repo: string, env: NodeJS.ProcessEnv) {
  const git = (...args: string[]) => gitIn(repo, { ...env, GIT_OPTIONAL_LOCKS: '0' }, ...QUIET, ...args);
  const file = (rel: string) => {
    const p = path.join(repo, '.git', rel);
    return fs.existsSync(p) ? fs.readFileSync(p).toString('base64') : null;
  };
  return {
    head: git('rev-parse', 'HEAD'),
    symbolicHead: file('HEAD'),
    branches: git('for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads', 'refs/tags', 'refs/stash'),
    stash: git('stash', 'list'),
    index: file('index'),
    config: file('config'),
    hooks: fs.readdirSync(path.join(repo, '.git', 'hooks')).sort(),
    status: git('status', '--porcelain=v1', '--untracked-files=all', '--ignored'),
  };
}

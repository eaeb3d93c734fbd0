// Real git repositories in temp dirs for the workspace commit's tests (P2.21): a person's repository with their
// identity in its config, a workspace folder in it, snapshots of that folder as trees (made as the snapshot store
// makes them: a private temporary index, `git add -A`, `write-tree`), and a fingerprint of everything the person
// owns (HEAD, refs, index bytes, working tree, objects) to prove that a skipped commit changed nothing.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const PERSON = { name: 'Ada Lovelace', email: 'ada@example.com' };

const made: string[] = [];
/** Removes every repository made since the last call (an afterEach). */
export function removeRepos(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

export interface RepoFingerprint {
  head: string;
  refs: string;
  index: string;
  files: Record<string, string>;
  gitFiles: string[];
  objects: string[];
}

export interface TestRepo {
  base: string;
  /** The person's home (global git config). */
  home: string;
  repo: string;
  /** The workspace folder: the repository's top level or a folder in it. */
  workspace: string;
  /** `git` in the repository as a person would run it (their hooks run); the setup's own commits are by "Setup". */
  git(...args: string[]): string;
  write(rel: string, text: string): void;
  read(rel: string): string;
  remove(rel: string): void;
  /** The workspace folder as a tree (what a checkpoint is), written into the repository's object store. */
  snapshot(): string;
  /** A second worktree of the repository (`git worktree add`) on a new branch, as the workspace. */
  linkedWorktree(branch: string): TestRepo;
  fingerprint(): RepoFingerprint;
}

function walk(dir: string, rel = ''): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const r = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? walk(path.join(dir, e.name), r) : [r];
  });
}

const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/**
 * A repository with `files` committed on `main` by "Setup" (none: an unborn branch), the person's identity in the
 * repository's config (`identity: 'repo'`), in their global config (`'global'`) or nowhere (`'none'`).
 */
export function makeRepo(
  options: { files?: Record<string, string>; subfolder?: string; identity?: 'repo' | 'global' | 'none' } = {},
): TestRepo {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-commit-test-')));
  made.push(base);
  const home = path.join(base, 'home');
  const repo = path.join(base, 'repo');
  fs.mkdirSync(home);
  fs.mkdirSync(repo);
  const workspace = options.subfolder ? path.join(repo, options.subfolder) : repo;
  fs.mkdirSync(workspace, { recursive: true });
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    LANG: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Setup',
    GIT_AUTHOR_EMAIL: 'setup@example.com',
    GIT_COMMITTER_NAME: 'Setup',
    GIT_COMMITTER_EMAIL: 'setup@example.com',
  };
  const run: Run = (cwd, args, extra = {}) =>
    execFileSync('git', args, { cwd, env: { ...env, ...extra }, encoding: 'utf8', stdio: 'pipe' });
  const git = (...args: string[]) => run(repo, args);
  git('init', '-q', '-b', 'main');
  const identity = options.identity ?? 'repo';
  if (identity === 'repo') {
    git('config', 'user.name', PERSON.name);
    git('config', 'user.email', PERSON.email);
  }
  if (identity === 'global') {
    fs.writeFileSync(path.join(home, '.gitconfig'), `[user]\n\tname = ${PERSON.name}\n\temail = ${PERSON.email}\n`);
  }
  const r = handle({ base, home, repo, top: repo, workspace, run });
  const files = options.files ?? {};
  for (const [rel, text] of Object.entries(files)) r.write(rel, text);
  if (Object.keys(files).length > 0) {
    git('add', '-A');
    git('commit', '-q', '-m', 'start');
  }
  return r;
}

type Run = (cwd: string, args: string[], extra?: Record<string, string>) => string;

/** A repository's handle; `top` is the worktree the workspace is in (the repository's own, or a linked one). */
function handle(at: { base: string; home: string; repo: string; top: string; workspace: string; run: Run }): TestRepo {
  const { base, home, repo, top, workspace, run } = at;
  const git = (...args: string[]) => run(repo, args);
  return {
    base,
    home,
    repo,
    workspace,
    git,
    write: (rel, text) => {
      fs.mkdirSync(path.dirname(path.join(workspace, rel)), { recursive: true });
      fs.writeFileSync(path.join(workspace, rel), text);
    },
    read: (rel) => fs.readFileSync(path.join(workspace, rel), 'utf8'),
    remove: (rel) => fs.rmSync(path.join(workspace, rel), { recursive: true }),
    snapshot: () => {
      const index = path.join(base, `snapshot-index-${Math.random().toString(36).slice(2)}`);
      try {
        run(workspace, ['add', '-A', '.'], { GIT_INDEX_FILE: index });
        const prefix = path.relative(top, workspace);
        return run(workspace, ['write-tree', ...(prefix ? [`--prefix=${prefix}/`] : [])], {
          GIT_INDEX_FILE: index,
        }).trim();
      } finally {
        fs.rmSync(index, { force: true });
      }
    },
    linkedWorktree: (branch) => {
      const tree = path.join(base, `worktree-${branch}`);
      git('worktree', 'add', '-q', '-b', branch, tree);
      return handle({ ...at, top: tree, workspace: tree });
    },
    fingerprint: () => {
      const dotGit = path.join(repo, '.git');
      const indexFile = path.join(dotGit, 'index');
      return {
        head: fs.readFileSync(path.join(dotGit, 'HEAD'), 'utf8'),
        refs: git('for-each-ref', '--format=%(refname) %(objectname)'),
        index: fs.existsSync(indexFile) ? sha(fs.readFileSync(indexFile)) : 'absent',
        files: Object.fromEntries(
          walk(repo)
            .filter((f) => !f.startsWith('.git/'))
            .map((f) => [f, sha(fs.readFileSync(path.join(repo, f)))]),
        ),
        gitFiles: walk(dotGit)
          .filter((f) => !f.startsWith('objects/'))
          .sort(),
        objects: walk(path.join(dotGit, 'objects')).sort(),
      };
    },
  };
}

/**
 * Hooks that each leave a marker file when they run: in .git/hooks, or in a folder core.hooksPath names (where git
 * then looks instead).
 */
export function plantHooks(r: TestRepo, where: 'dot-git' | 'hooks-path'): { markers: string } {
  const markers = path.join(r.base, 'markers');
  fs.mkdirSync(markers, { recursive: true });
  const dir = where === 'dot-git' ? path.join(r.repo, '.git', 'hooks') : path.join(r.base, 'hooks-path');
  fs.mkdirSync(dir, { recursive: true });
  if (where === 'hooks-path') r.git('config', 'core.hooksPath', dir);
  for (const hook of [
    'pre-commit',
    'prepare-commit-msg',
    'commit-msg',
    'post-commit',
    'reference-transaction',
    'post-index-change',
  ]) {
    const file = path.join(dir, hook);
    fs.writeFileSync(file, `#!/bin/sh\ntouch "${markers}/${hook}"\nexit 0\n`);
    fs.chmodSync(file, 0o755);
  }
  return { markers };
}

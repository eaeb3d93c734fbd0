// The host's own git against a repository the agent had a hand in: a `.git/config` with a core.fsmonitor, a pager and
// a hooks path, and hooks of its own. `git status` and `git commit` through runHostGit run none of them (the marker
// files they would create stay absent), and the commit is made.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runHostGit } from './host-git';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function hostileRepo() {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-host-git-')));
  made.push(base);
  const repo = path.join(base, 'repo');
  const markers = path.join(base, 'markers');
  fs.mkdirSync(repo);
  fs.mkdirSync(markers);
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: base };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env, stdio: 'pipe' });
  git('init', '-q');
  fs.writeFileSync(path.join(repo, 'a.txt'), 'a\n');
  const script = (name: string) => {
    const p = path.join(base, `${name}.sh`);
    fs.writeFileSync(p, `#!/bin/sh\ntouch ${path.join(markers, name)}\ncat\n`);
    fs.chmodSync(p, 0o755);
    return p;
  };
  const hooks = path.join(repo, '.git', 'hooks');
  for (const hook of ['pre-commit', 'commit-msg', 'post-commit', 'post-index-change']) {
    fs.writeFileSync(path.join(hooks, hook), `#!/bin/sh\ntouch ${path.join(markers, hook)}\n`);
    fs.chmodSync(path.join(hooks, hook), 0o755);
  }
  const evilHooks = path.join(base, 'evil-hooks');
  fs.mkdirSync(evilHooks);
  fs.writeFileSync(path.join(evilHooks, 'pre-commit'), `#!/bin/sh\ntouch ${path.join(markers, 'hooksPath')}\n`);
  fs.chmodSync(path.join(evilHooks, 'pre-commit'), 0o755);
  fs.appendFileSync(
    path.join(repo, '.git', 'config'),
    `[core]\n\tfsmonitor = ${script('fsmonitor')}\n\tpager = ${script('pager')}\n\thooksPath = ${evilHooks}\n` +
      `\teditor = ${script('editor')}\n[user]\n\tname = T\n\temail = t@example.com\n`,
  );
  // The planted config works as planted: plain git runs the fsmonitor.
  git('status');
  const ran = fs.readdirSync(markers);
  for (const m of ran) fs.rmSync(path.join(markers, m));
  return { base, repo, markers, ran };
}

describe('runHostGit', () => {
  it('git status and git commit in a repository with a hostile .git/config and hooks run none of them', async () => {
    const r = hostileRepo();
    expect(r.ran).toContain('fsmonitor'); // the attack is real
    const status = await runHostGit(['status', '--porcelain'], { cwd: r.repo, home: r.base });
    expect(status).toMatchObject({ code: 0, stdout: '?? a.txt\n' });
    expect(await runHostGit(['add', 'a.txt'], { cwd: r.repo, home: r.base })).toMatchObject({ code: 0 });
    const commit = await runHostGit(['commit', '-q', '-m', 'checkpoint'], { cwd: r.repo, home: r.base });
    expect(commit).toMatchObject({ code: 0 });
    expect(await runHostGit(['log', '--oneline'], { cwd: r.repo, home: r.base })).toMatchObject({
      stdout: expect.stringContaining('checkpoint'),
    });
    // Without -m git would open the editor: it fails instead of running the planted one.
    await runHostGit(['commit', '--allow-empty'], { cwd: r.repo, home: r.base });
    expect(fs.readdirSync(r.markers)).toEqual([]);
  });

  it('writes input to stdin and adds env; without input stdin is closed, so a git that reads it never waits', async () => {
    const r = hostileRepo();
    const empty = await runHostGit(['hash-object', '--stdin'], { cwd: r.repo, home: r.base });
    expect(empty).toMatchObject({ code: 0, stdout: 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391\n' });
    const hello = await runHostGit(['hash-object', '--stdin'], { cwd: r.repo, home: r.base, input: 'hello\n' });
    expect(hello.stdout).toBe('ce013625030ba8dba906f756967f9e9ca394464a\n');
    const index = path.join(r.base, 'private-index');
    await runHostGit(['add', 'a.txt'], { cwd: r.repo, home: r.base, env: { GIT_INDEX_FILE: index } });
    expect(fs.existsSync(index)).toBe(true);
    expect(fs.existsSync(path.join(r.repo, '.git', 'index'))).toBe(false);
  });

  it('never prompts or reaches the network: a fetch from a remote fails at once', async () => {
    const r = hostileRepo();
    const fetched = await runHostGit(['fetch', 'https://example.invalid/x.git'], { cwd: r.repo, home: r.base });
    expect(fetched.code).not.toBe(0);
    expect(fetched.stderr).toMatch(/not allowed|transport/i);
  });
});

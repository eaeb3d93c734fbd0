// Issue 21, point 1, under bubblewrap for real: in a workspace that is NOT the host's working directory (the library
// protects only that one by itself), an approved command and the reference filesystem MCP server try to plant what
// the person's own git, shell and editor would run — `core.fsmonitor` in `.git/config`, a pre-commit hook, `.envrc`,
// `.vscode/tasks.json`, a `.git/commondir` pointing elsewhere, a new repository — and each file stays byte for byte
// as it was (or absent). Then the person's own `git status` runs no payload.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openFilesystemServer } from '../../test-support/connection-kit';
import { dispatchCall, tempWorkspace, text } from '../../test-support/tools';
import { hiddenPaths, openSandbox, sandboxUnavailableReason } from './os-sandbox';
import { DEFAULT_POLICY } from './policy-schema';
import { runCommandTool } from './run-command';

const unavailable = sandboxUnavailableReason();
if (unavailable) console.warn(`SKIPPED the protected-files attack tests: ${unavailable}`);

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

const CONFIG = '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n';

/** A git workspace in a temp folder (never the host's cwd), a marker folder outside it, and a payload script. */
function scene() {
  const t = tempWorkspace();
  expect(process.cwd()).not.toBe(t.ws);
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: t.ws, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' }, encoding: 'utf8' });
  git('init', '-q');
  fs.writeFileSync(path.join(t.ws, '.git', 'config'), CONFIG);
  const marker = path.join(t.outside, 'payload-ran');
  const payload = path.join(t.outside, 'payload.sh');
  fs.writeFileSync(payload, `#!/bin/sh\ntouch ${marker}\n`);
  fs.chmodSync(payload, 0o755);
  const sandbox = openSandbox(hiddenPaths([]), path.join(t.outside, 'home'));
  const tool = runCommandTool({ ...DEFAULT_POLICY, runCommandAllow: ['*'] });
  const run = async (command: string) => text(await dispatchCall(tool, { command }, t.ctx({ sandbox })));
  return { ...t, git, marker, payload, sandbox, run };
}

/** Every file below `dir` (`.git/objects` aside) with its bytes, and every folder. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const rel of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    // `.maestro/` is made by the sandbox (so it can be bound read-only).
    if (rel.startsWith(`.git${path.sep}objects`) || rel === '.maestro') continue;
    const stat = fs.lstatSync(path.join(dir, rel));
    files[rel] = stat.isFile()
      ? fs.readFileSync(path.join(dir, rel), 'base64')
      : stat.isDirectory()
        ? '(folder)'
        : '(other)';
  }
  return files;
}

describe.skipIf(unavailable !== null)(
  'files that run code outside the sandbox, in a workspace that is not the cwd (P4.35)',
  () => {
    it('an approved command cannot append core.fsmonitor to .git/config, add a hook, .envrc, .vscode/tasks.json, .gitmodules or a commondir', async () => {
      const s = scene();
      const before = snapshot(s.ws);
      const attempts = [
        `printf '[core]\\n\\tfsmonitor = ${s.payload}\\n' >> .git/config`,
        `git config core.fsmonitor ${s.payload}`,
        `printf '#!/bin/sh\\n${s.payload}\\n' > .git/hooks/pre-commit`,
        `mkdir -p .git/info && echo '* filter=x' > .git/info/attributes`,
        `echo ${s.payload} > .envrc`,
        `mkdir -p .vscode && echo '{"tasks":[{"runOptions":{"runOn":"folderOpen"},"command":"${s.payload}"}]}' > .vscode/tasks.json`,
        `mkdir -p .husky && echo ${s.payload} > .husky/pre-commit`,
        `echo '[submodule "x"]' > .gitmodules`,
        `mv .git/config .git/config.old`,
        `rm -rf .git/hooks`,
        // Moving the protected folder aside to make a new one, going through a link to it, another case.
        `mv .git .git-old && mkdir .git && printf '[core]\\n\\tfsmonitor = ${s.payload}\\n' > .git/config`,
        `ln -s .git lnk && printf '[core]\\n\\tfsmonitor = ${s.payload}\\n' >> lnk/config; rm -f lnk`,
        `printf '[core]\\n\\tfsmonitor = ${s.payload}\\n' >> .GIT/config`,
      ];
      for (const attempt of attempts) await s.run(attempt);
      // A commondir sends git to another folder's config: it cannot be held by a placeholder, so it is removed after.
      const out = await s.run(
        `mkdir evil && printf '[core]\\n\\tfsmonitor = ${s.payload}\\n' > evil/config && echo ../evil > .git/commondir; echo made`,
      );
      expect(out).toContain('made');
      expect(out).toMatch(/Note: removed \.git\/commondir/);
      const after = snapshot(s.ws);
      delete after.evil;
      delete after[path.join('evil', 'config')];
      expect(after).toEqual(before);
      expect(fs.readFileSync(path.join(s.ws, '.git', 'config'), 'utf8')).toBe(CONFIG);
      // The person's own git (no protection of ours) then runs nothing of the payload.
      s.git('status');
      s.git('-c', 'user.name=p', '-c', 'user.email=p@x', 'commit', '-q', '--allow-empty', '-m', 'x');
      expect(fs.existsSync(s.marker)).toBe(false);
    });

    it('a nested repository the workspace already has is protected the same way', async () => {
      const s = scene();
      execFileSync('git', ['init', '-q', 'vendor/lib'], { cwd: s.ws });
      const nested = path.join(s.ws, 'vendor', 'lib', '.git', 'config');
      const config = fs.readFileSync(nested, 'utf8');
      await s.run(`printf '[core]\\n\\tfsmonitor = ${s.payload}\\n' >> vendor/lib/.git/config`);
      await s.run(`echo ${s.payload} > vendor/lib/.git/hooks/post-checkout`);
      expect(fs.readFileSync(nested, 'utf8')).toBe(config);
      expect(fs.existsSync(path.join(s.ws, 'vendor', 'lib', '.git', 'hooks', 'post-checkout'))).toBe(false);
    });

    it("a repository made in the sandbox (git init sub, a .git pointer) keeps nothing git would run; the person's git runs no payload", async () => {
      const s = scene();
      const out = await s.run(
        `git init -q sub && printf '[core]\\n\\tfsmonitor = ${s.payload}\\n' >> sub/.git/config && ` +
          `printf '#!/bin/sh\\n${s.payload}\\n' > sub/.git/hooks/pre-commit && chmod +x sub/.git/hooks/pre-commit && ` +
          `mkdir evil sub2 && printf '[core]\\n\\tfsmonitor = ${s.payload}\\n' > evil/config && ` +
          `mkdir evil/objects evil/refs && echo 'ref: refs/heads/main' > evil/HEAD && echo 'gitdir: ../evil' > sub2/.git; echo made`,
      );
      expect(out).toContain('made');
      expect(out).toMatch(/Note: removed .*sub\/\.git\/config.*sub\/\.git\/hooks.*sub2\/\.git/);
      expect(fs.existsSync(path.join(s.ws, 'sub', '.git', 'config'))).toBe(false);
      expect(fs.existsSync(path.join(s.ws, 'sub', '.git', 'hooks'))).toBe(false);
      expect(fs.existsSync(path.join(s.ws, 'sub2', '.git'))).toBe(false);
      // The new repository still works for the person, and runs nothing.
      execFileSync('git', ['status'], { cwd: path.join(s.ws, 'sub') });
      execFileSync('git', ['-c', 'user.name=p', '-c', 'user.email=p@x', 'commit', '-q', '--allow-empty', '-m', 'x'], {
        cwd: path.join(s.ws, 'sub'),
      });
      execFileSync('git', ['status'], { cwd: path.join(s.ws, 'sub2') });
      expect(fs.existsSync(s.marker)).toBe(false);
    });

    it('commands still work: git status, git add and git commit in the sandbox; a folder that is not a repository cannot become one', async () => {
      const s = scene();
      s.put('a.txt', 'a\n');
      const out = await s.run(
        'git add a.txt && git -c user.name=a -c user.email=a@x commit -q -m one && git log --oneline | wc -l',
      );
      expect(out).toMatch(/^Exit code: 0\n1\n/);
      // Without a .git, `git init` fails inside (its .git would be the agent's to configure); nothing is left behind.
      const plain = tempWorkspace();
      const sandbox = openSandbox(hiddenPaths([]), path.join(plain.outside, 'home'));
      const tool = runCommandTool({ ...DEFAULT_POLICY, runCommandAllow: ['*'] });
      const init = text(await dispatchCall(tool, { command: 'git init' }, plain.ctx({ sandbox })));
      expect(init).toMatch(/Read-only file system/);
      expect(fs.readdirSync(plain.ws).filter((n) => n !== '.maestro')).toEqual([]);
    });

    it('the reference filesystem MCP server cannot write .git/config, a hook, .envrc or .vscode/tasks.json', async () => {
      const s = scene();
      const before = snapshot(s.ws);
      const connection = await openFilesystemServer(s.ws, s.sandbox);
      closers.push(() => connection.close());
      const write = (p: string, content: string) =>
        connection.callTool('write_file', { path: path.join(s.ws, p), content }, new AbortController().signal);
      for (const [rel, content] of [
        ['.git/config', `[core]\n\tfsmonitor = ${s.payload}\n`],
        ['.git/hooks/pre-commit', `#!/bin/sh\n${s.payload}\n`],
        ['.envrc', s.payload],
        ['.vscode/tasks.json', '{}'],
      ] as const) {
        const result = await write(rel, content);
        expect(result.isError, rel).toBe(true);
      }
      const edit = await connection.callTool(
        'edit_file',
        {
          path: path.join(s.ws, '.git', 'config'),
          edits: [{ oldText: 'bare = false', newText: `fsmonitor = ${s.payload}` }],
        },
        new AbortController().signal,
      );
      expect(edit.isError).toBe(true);
      // It still writes the rest of the workspace.
      expect((await write('notes.md', 'hello')).isError).toBeFalsy();
      // While it runs, the sandbox holds the missing ones' places with empty read-only placeholders; they go with it.
      await connection.close();
      fs.rmSync(path.join(s.ws, 'notes.md'));
      expect(snapshot(s.ws)).toEqual(before);
      s.git('status');
      expect(fs.existsSync(s.marker)).toBe(false);
    });
  },
);

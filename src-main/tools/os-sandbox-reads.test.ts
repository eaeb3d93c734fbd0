// Issue 21, point 5, under bubblewrap for real: a planted home folder (an API key in the shell history, a browser's
// cookie database, another project, mail, a ~/.gitconfig with a credential helper and a token in a URL) and a file in
// /tmp outside the workspace. A sandboxed command reads none of them and its result says the sandbox hid them; the
// workspace (in /tmp or in the home folder), a package cache and the toolchains stay readable, and git still knows
// who commits.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openFilesystemServer } from '../../test-support/connection-kit';
import { dispatchCall, tempWorkspace, text } from '../../test-support/tools';
import { hiddenPaths, openSandbox, sandboxUnavailableReason } from './os-sandbox';
import { DEFAULT_POLICY } from './policy-schema';
import { runCommandTool } from './run-command';
import { launchesPackage } from './sandbox-reads';
import { runSandboxed } from './sandboxed-run';

const unavailable = sandboxUnavailableReason();
if (unavailable) console.warn(`SKIPPED the home-folder read tests: ${unavailable}`);

function plantedHome() {
  const t = tempWorkspace();
  const home = path.join(t.outside, 'home');
  const plant = (rel: string, content: string) => {
    const p = path.join(home, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
    return p;
  };
  const secrets = {
    history: plant('.bash_history', 'export OPENAI_API_KEY=sk-live-HISTORY-KEY\n'),
    cookies: plant('.config/google-chrome/Default/Cookies', 'COOKIE-DATABASE'),
    other: plant('projects/other/.env', 'OTHER-PROJECT-SECRET'),
    mail: plant('Mail/INBOX', 'MAIL-BODY'),
    cargoToken: plant('.cargo/credentials.toml', 'CARGO-TOKEN'),
    tmp: path.join(t.outside, 'in-tmp.txt'),
  };
  fs.writeFileSync(secrets.tmp, 'TMP-OUTSIDE');
  const visible = {
    npm: plant('.npm/_cacache/index-v5/x', 'NPM-CACHE'),
    cargoBin: plant('.cargo/bin/cargo-x', 'CARGO-BIN'),
  };
  plant(
    '.gitconfig',
    '[user]\n\tname = Pat Person\n\temail = pat@example.com\n[credential]\n\thelper = store\n' +
      '[url "https://pat:ghp_SECRETTOKEN@github.com/"]\n\tinsteadOf = https://github.com/\n' +
      '[core]\n\tfsmonitor = /bin/false\n\tsshCommand = ssh -i /keys/id\n',
  );
  const sandbox = openSandbox(hiddenPaths([], home), home);
  const tool = runCommandTool({ ...DEFAULT_POLICY, runCommandAllow: ['*'] });
  const run = async (command: string, ws = t.ws) =>
    text(await dispatchCall(tool, { command }, t.ctx({ sandbox, workspacePath: ws })));
  return { ...t, home, plant, secrets, visible, sandbox, run };
}

describe.skipIf(unavailable !== null)('what a sandboxed command reads (issue 21 point 5; P4.35)', () => {
  it('shell history, browser cookies, another project, mail, a cargo token and the rest of /tmp are hidden, and the result says so', async () => {
    const s = plantedHome();
    s.put('a.txt', 'WORKSPACE-FILE');
    const files = Object.values(s.secrets);
    const out = await s.run(
      `cat a.txt ${files.join(' ')} ${Object.values(s.visible).join(' ')}; ls ${s.home}/projects`,
    );
    for (const secret of [
      'sk-live-HISTORY-KEY',
      'COOKIE-DATABASE',
      'OTHER-PROJECT-SECRET',
      'MAIL-BODY',
      'CARGO-TOKEN',
      'TMP-OUTSIDE',
    ]) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain('WORKSPACE-FILE');
    expect(out).toContain('NPM-CACHE');
    expect(out).toContain('CARGO-BIN');
    expect(out).toMatch(/Note: the OS sandbox hides [^\n]*\.bash_history/);
    expect(out).toContain(s.secrets.tmp);
  });

  it('a workspace inside the home folder stays readable and writable; the project beside it does not', async () => {
    const s = plantedHome();
    const ws = path.dirname(s.plant('projects/mine/readme.md', 'MY-PROJECT'));
    const out = await s.run(`cat readme.md ../other/.env; echo written > out.txt; cat out.txt`, ws);
    expect(out).toContain('MY-PROJECT');
    expect(out).not.toContain('OTHER-PROJECT-SECRET');
    expect(out).toContain('written');
    expect(fs.readFileSync(path.join(ws, 'out.txt'), 'utf8')).toBe('written\n');
  });

  it('git sees who commits from ~/.gitconfig, never its credential helper, token URL or programs', async () => {
    const s = plantedHome();
    const out = await s.run('git config --global --list; cat "$GIT_CONFIG_GLOBAL"');
    expect(out).toContain('user.name=Pat Person');
    expect(out).toContain('user.email=pat@example.com');
    for (const hidden of ['ghp_SECRETTOKEN', 'credential', 'insteadof', 'fsmonitor', 'sshcommand']) {
      expect(out.toLowerCase()).not.toContain(hidden.toLowerCase());
    }
  });

  it('an app installed below the hidden home folder (a checkout, an AppImage mount in /tmp) still runs its commands', async () => {
    // The home folder here holds this very checkout, so its node_modules (the library's seccomp helper) is hidden.
    const t = tempWorkspace();
    const home = path.dirname(process.cwd());
    const sandbox = openSandbox(hiddenPaths([], home), home);
    const tool = runCommandTool({ ...DEFAULT_POLICY, runCommandAllow: ['*'] });
    const out = text(await dispatchCall(tool, { command: 'echo ran' }, t.ctx({ sandbox })));
    expect(out).toBe('Exit code: 0\nran\n');
  });

  it('the command has a private /tmp of its own: writable, and empty of anyone else’s files', async () => {
    const s = plantedHome();
    const out = await s.run('echo mine > "$TMPDIR/x" && cat "$TMPDIR/x"; ls /tmp | grep -c maestro-tools- || true');
    expect(out).toContain('mine');
    // Only the workspace's own temp parent shows (as the path to the workspace), not the other test folders.
    expect(Number(out.trim().split('\n').at(-1))).toBeLessThanOrEqual(1);
  });
});

describe.skipIf(unavailable !== null)('what a sandboxed stdio MCP server reads', () => {
  it('the reference filesystem server, even given the home folder as a root, reads no history; its result says why', async () => {
    const s = plantedHome();
    const connection = await openFilesystemServer(s.ws, s.sandbox, [s.home]);
    try {
      const result = await connection.callTool(
        'read_text_file',
        { path: s.secrets.history },
        new AbortController().signal,
      );
      const content = JSON.stringify(result.content);
      expect(content).not.toContain('sk-live-HISTORY-KEY');
      expect(connection.explain(content)).toMatch(/^Note: the OS sandbox hides .*\.bash_history/);
    } finally {
      await connection.close();
    }
  });
});

describe.skipIf(unavailable !== null)('a process that installs itself (npx -y, uvx)', () => {
  it('may write the package caches of the home folder; any other process may not', async () => {
    const s = plantedHome();
    const probe = path.join(s.home, '.npm', 'probe');
    const opts = {
      cwd: s.ws,
      env: { PATH: process.env.PATH ?? '' },
      timeoutMs: 20_000,
      headChars: 4000,
      tailChars: 4000,
    };
    if (!s.sandbox.ok) throw new Error(s.sandbox.reason);
    const plain = await runSandboxed(s.sandbox.sandbox, `touch ${probe}`, opts, { writable: [s.ws] });
    expect(plain.exitCode).not.toBe(0);
    expect(fs.existsSync(probe)).toBe(false);
    const installing = await runSandboxed(
      s.sandbox.sandbox,
      `touch ${probe} ${path.join(s.home, '.cache', 'uv', 'x')}`,
      opts,
      {
        writable: [s.ws],
        installs: true,
      },
    );
    expect(installing.exitCode).toBe(0);
    expect(fs.existsSync(probe)).toBe(true);
  });
});

describe('MCP servers that install themselves', () => {
  it.each([
    ['npx', true],
    ['/usr/local/bin/uvx', true],
    ['pnpx', true],
    ['node', false],
    ['python3', false],
  ])('%s installs its package as it starts: %s', (command, installs) => {
    expect(launchesPackage(command)).toBe(installs);
  });
});

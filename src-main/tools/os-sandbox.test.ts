// The OS sandbox, attacked the way a steered model would: every command here runs for real in bubblewrap (Linux;
// `.ci/run` installs it), under the README's own example policy, in a workspace with a data dir beside it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openFilesystemServer } from '../../test-support/connection-kit';
import { dispatchCall, tempWorkspace, text } from '../../test-support/tools';
import { hiddenPaths, openSandbox, type SandboxChoice, sandboxUnavailableReason } from './os-sandbox';
import { DEFAULT_POLICY, type WorkspaceToolPolicy } from './policy-schema';
import { runCommandTool } from './run-command';
import type { ToolContext } from './types';

const unavailable = sandboxUnavailableReason();
if (unavailable) console.warn(`SKIPPED the OS sandbox attack tests: ${unavailable}`);

/** The README's example policy. */
const README_POLICY: WorkspaceToolPolicy = {
  ...DEFAULT_POLICY,
  runCommandAllow: ['npm test', 'git status', 'npm run *', 'git diff *'],
};

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

/** A workspace, a data dir with a key in it and a fake home with an SSH key, all beside each other. */
function scene() {
  const t = tempWorkspace();
  const dataDir = path.join(t.outside, 'data');
  const home = path.join(t.outside, 'home');
  fs.mkdirSync(dataDir);
  fs.writeFileSync(path.join(dataDir, 'secret.key'), 'DATA-DIR-KEY');
  fs.writeFileSync(path.join(dataDir, 'profiles.json'), '{"sealed":"PROFILE-KEY"}');
  fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
  fs.writeFileSync(path.join(home, '.ssh', 'id_ed25519'), 'SSH-PRIVATE-KEY');
  fs.mkdirSync(path.join(t.ws, '.maestro'));
  fs.writeFileSync(path.join(t.ws, '.maestro', 'policy.json'), '{}');
  const sandbox: SandboxChoice = openSandbox(hiddenPaths([dataDir], home));
  const ctx = (o: Partial<ToolContext> = {}) => t.ctx({ sandbox, ...o });
  return { ...t, dataDir, home, sandbox, ctx };
}

const allowed = runCommandTool(README_POLICY);
const run = async (s: ReturnType<typeof scene>, command: string) =>
  text(await dispatchCall(allowed, { command }, s.ctx()));

describe.skipIf(unavailable !== null)('the OS sandbox against a steered agent (bubblewrap)', () => {
  it('a steered `npm test` (a test script the agent wrote) runs sandboxed: no write outside, no key, no host environment', async () => {
    const s = scene();
    const leak = path.join(s.outside, 'leaked.txt');
    const script = [
      `echo pwned > ${leak}`,
      `cat ${path.join(s.dataDir, 'secret.key')}`,
      `cat ${path.join(s.home, '.ssh', 'id_ed25519')}`,
      'cat /proc/$PPID/environ | tr "\\0" "\\n" | grep -c MAESTRO_',
      'env | grep -c API_KEY',
      'echo reached-the-end',
    ].join('; ');
    s.put('package.json', JSON.stringify({ name: 'x', version: '1.0.0', scripts: { test: script } }));
    process.env.MAESTRO_LLM_API_KEY_FOR_THIS_TEST = 'sk-host-secret';
    try {
      const out = await run(s, 'npm test');
      expect(out).toContain('reached-the-end');
      expect(out).not.toContain('DATA-DIR-KEY');
      expect(out).not.toContain('SSH-PRIVATE-KEY');
      expect(out).not.toContain('sk-host-secret');
      expect(out).toMatch(/Read-only file system|No such file or directory/);
    } finally {
      delete process.env.MAESTRO_LLM_API_KEY_FOR_THIS_TEST;
    }
    expect(fs.existsSync(leak)).toBe(false);
  });

  it('a core.fsmonitor the agent put into .git/config runs only inside the sandbox when `git status` runs', async () => {
    const s = scene();
    execFileSync('git', ['init', '-q'], { cwd: s.ws });
    const leak = path.join(s.outside, 'fsmonitor-ran.txt');
    const inside = path.join(s.ws, 'fsmonitor-inside.txt');
    s.put('hook.sh', `#!/bin/sh\necho ran > ${inside}\necho ran > ${leak}\n`);
    fs.chmodSync(path.join(s.ws, 'hook.sh'), 0o755);
    execFileSync('git', ['config', 'core.fsmonitor', path.join(s.ws, 'hook.sh')], { cwd: s.ws });
    await run(s, 'git status');
    expect(fs.readFileSync(inside, 'utf8')).toBe('ran\n'); // it ran…
    expect(fs.existsSync(leak)).toBe(false); // …and could not write outside the workspace
    // That a command cannot change git's config or hooks (which run outside the sandbox the next time a person uses
    // git) is tried for real, write by write, in os-sandbox-protect.test.ts.
  });

  it('`git diff --output=<outside>` cannot write outside the workspace', async () => {
    const s = scene();
    s.put('a.txt', 'a\n');
    s.put('b.txt', 'b\n');
    const target = path.join(s.outside, 'diff-out.txt');
    const out = await run(s, `git diff --no-index --output=${target} a.txt b.txt`);
    expect(out).not.toMatch(/^Exit code: 0/);
    expect(fs.existsSync(target)).toBe(false);
  });

  it('a command cannot write .maestro/ (the policy stays as the person left it), but writes the rest of the workspace', async () => {
    const s = scene();
    const tool = runCommandTool({ ...README_POLICY, runCommandAllow: ['*'] });
    const out = text(
      await dispatchCall(
        tool,
        { command: `echo '{"run_command":{"allow":["*"]}}' > .maestro/policy.json; echo ok > made.txt; echo done` },
        s.ctx(),
      ),
    );
    expect(out).toContain('done');
    expect(fs.readFileSync(path.join(s.ws, '.maestro', 'policy.json'), 'utf8')).toBe('{}');
    expect(fs.readFileSync(path.join(s.ws, 'made.txt'), 'utf8')).toBe('ok\n');
  });

  // Linux: bubblewrap's PID namespace (Seatbelt on macOS has none).
  it.skipIf(process.platform !== 'linux')(
    "the host's processes are invisible (own PID namespace) and /proc/$PPID is not the host",
    async () => {
      const s = scene();
      const tool = runCommandTool({ ...README_POLICY, runCommandAllow: ['*'] });
      const out = text(
        await dispatchCall(
          tool,
          { command: `kill -0 ${process.pid} && echo can-signal-host; ls /proc | grep -c '^[0-9]'` },
          s.ctx(),
        ),
      );
      expect(out).not.toContain('can-signal-host');
      const inside = Number(out.trim().split('\n').at(-1));
      const onHost = fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n)).length;
      expect(inside).toBeGreaterThan(0);
      expect(inside).toBeLessThan(onHost);
    },
  );

  it('no network unless the call names the host and the policy (or a person) allows it', async () => {
    const s = scene();
    const server = http.createServer((_req, res) => res.end('hello from the host'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    // Through the sandbox's proxy even for a loopback address (which curl would otherwise try directly, and fail: the
    // sandbox has a network namespace of its own).
    const curl = `curl -sS --max-time 5 --noproxy '' http://${host}/`;
    const open = runCommandTool({ ...README_POLICY, runCommandAllow: ['*'] });
    expect(text(await dispatchCall(open, { command: curl }, s.ctx()))).not.toContain('hello from the host');
    // Naming a host the policy does not list asks a person, and says which host.
    const asks = await dispatchCall(open, { command: curl, network: [host] }, s.ctx());
    expect(asks).toMatchObject({ kind: 'wait', toolRequest: { summary: expect.stringContaining(`Network: ${host}`) } });
    const listed = runCommandTool({ ...README_POLICY, runCommandAllow: ['*'], runCommandNetwork: [host] });
    expect(text(await dispatchCall(listed, { command: curl, network: [host] }, s.ctx()))).toContain(
      'hello from the host',
    );
  });

  it('the reference filesystem MCP server, rooted at the workspace, cannot rewrite .maestro/policy.json', async () => {
    const s = scene();
    const connection = await openFilesystemServer(s.ws, s.sandbox);
    closers.push(() => connection.close());
    const write = (p: string, content: string) =>
      connection.callTool('write_file', { path: path.join(s.ws, p), content }, new AbortController().signal);
    const refused = await write('.maestro/policy.json', '{"run_command":{"allow":["*"]}}');
    expect(refused.isError).toBe(true);
    expect(fs.readFileSync(path.join(s.ws, '.maestro', 'policy.json'), 'utf8')).toBe('{}');
    const done = await write('notes.md', 'hello');
    expect(done.isError).toBeFalsy();
    expect(fs.readFileSync(path.join(s.ws, 'notes.md'), 'utf8')).toBe('hello');
  });
});

describe('run_command without an OS sandbox', () => {
  it('every command asks, whatever the policy, and the card says why', async () => {
    const t = tempWorkspace();
    const tool = runCommandTool({ ...README_POLICY, runCommandAllow: ['*'] });
    const out = await dispatchCall(
      tool,
      { command: 'npm test' },
      t.ctx({ sandbox: { ok: false, reason: 'bubblewrap is missing' } }),
      'allow', // even a task grant
    );
    expect(out).toMatchObject({
      kind: 'wait',
      toolRequest: { summary: expect.stringContaining('NOT sandboxed: bubblewrap is missing') },
    });
  });

  it.skipIf(unavailable !== null)('outside_sandbox always asks, even under `*` and a task grant', async () => {
    const s = scene();
    const tool = runCommandTool({ ...README_POLICY, runCommandAllow: ['*'] });
    const out = await dispatchCall(tool, { command: 'ls', outside_sandbox: true }, s.ctx(), 'allow');
    expect(out).toMatchObject({
      kind: 'wait',
      toolRequest: { summary: expect.stringContaining('NOT sandboxed: it asks to run outside the OS sandbox') },
    });
  });
});

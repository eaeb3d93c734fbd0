// P2.18 / §2 M: run_command on an SSH target, against a REAL OpenSSH sshd on loopback (test-support/sshd.ts: temp
// config, host key and authorized_keys), through the tool as the dispatcher drives it (review, then execute): output,
// exit code, cwd, one reused connection, timeout and cancel (the remote process is gone), a dropped connection, a
// host key other than the policy's, an unreachable host, a refused key, a denied command, a target the policy does
// not name; the key the person chose is sealed in ssh-keys.json (never there in clear), or the agent is used.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type KeyPair, makeKeyPair, SSHD, startSshd, type TestSshd } from '../../test-support/sshd';
import { fileSecretBox } from '../llm/secret-box';
import { McpTokenStore } from '../mcp/token-store';
import { withheld } from './permission';
import { parsePolicy } from './policy';
import type { WorkspaceToolPolicy } from './policy-schema';
import { type RunCommandArgs, runCommandTool } from './run-command';
import { readPrivateKeyFile, SSH_KEYS_FILE, sshCredentials } from './ssh-keys';
import { SshSessions } from './ssh-run';
import type { ToolContext, ToolResult } from './types';

if (!SSHD) {
  console.warn(
    '\n*** SKIPPING the SSH target tests (P2.18): /usr/sbin/sshd is not installed (apt-get install openssh-server) ***\n',
  );
}

const OUT_ERR_EXIT = 'echo out; echo err >&2; exit 3';
const accepted = (log: string) => (log.match(/Accepted publickey/g) ?? []).length;

/** Whether a process whose command line holds `marker` is running (the remote side is this machine). */
function running(marker: string): boolean {
  const ps = execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' });
  return ps.split('\n').some((line) => line.includes(marker) && !line.includes('ps -eo'));
}

async function gone(marker: string): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if (!running(marker)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe.skipIf(!SSHD)('P2.18 run_command on SSH targets (real OpenSSH sshd)', { timeout: 60_000 }, () => {
  let dir: string;
  let workspace: string;
  let sshd: TestSshd;
  let clientKey: KeyPair;
  let keys: McpTokenStore;
  let policy: WorkspaceToolPolicy;
  let agent: ChildProcess | undefined;
  const open: SshSessions[] = [];

  const ctx = (signal = new AbortController().signal): ToolContext => ({
    taskId: 't',
    jobId: 'j',
    workspacePath: workspace,
    canEdit: true,
    signal,
    sandbox: { ok: false, reason: 'no sandbox in this test' },
  });

  const sessions = (env: NodeJS.ProcessEnv = {}) => {
    const s = new SshSessions(sshCredentials(workspace, keys, env), 5_000);
    open.push(s);
    return s;
  };

  /** A call as the dispatcher makes it: withheld (policy rule none) and, when it may run, executed. */
  async function call(
    args: RunCommandArgs,
    s: SshSessions,
    signal?: AbortSignal,
  ): Promise<ToolResult | { kind: 'wait'; summary: string; display: unknown }> {
    const tool = runCommandTool(policy, s);
    const parsed = tool.parameters.parse(args);
    const c = ctx(signal);
    const held = withheld(tool, parsed, c, undefined);
    if (held?.kind === 'wait') {
      return { kind: 'wait', summary: held.toolRequest?.summary ?? '', display: held.toolRequest?.display };
    }
    if (held) return held;
    return (await tool.execute(parsed, c)) as ToolResult;
  }

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-ssh-target-'));
    workspace = path.join(dir, 'ws');
    fs.mkdirSync(workspace);
    clientKey = makeKeyPair(dir, 'id_client');
    sshd = await startSshd([clientKey]);
    const impostor = makeKeyPair(dir, 'impostor');
    const line = (k: KeyPair) => `[127.0.0.1]:${sshd.port} ${k.publicLine.split(' ').slice(0, 2).join(' ')}`;
    const target = (over: Record<string, unknown>) => ({
      host: '127.0.0.1',
      port: sshd.port,
      user: sshd.user,
      hostKey: line(sshd.hostKey),
      ...over,
    });
    policy = parsePolicy(
      JSON.stringify({
        ssh: {
          targets: {
            box: target({
              allow: ['echo *', 'pwd', 'sleep *', OUT_ERR_EXIT, 'echo begun; sleep 41.25'],
              deny: ['rm *'],
            }),
            byprint: target({ hostKey: sshd.hostKeyFingerprint, allow: ['echo *'] }),
            impostor: target({ hostKey: line(impostor), allow: ['echo *'] }),
            down: target({ port: await closedPort(), allow: ['echo *'] }),
          },
        },
      }),
      path.join(workspace, '.maestro/policy.json'),
    );
    keys = new McpTokenStore(
      path.join(dir, 'data', SSH_KEYS_FILE),
      fileSecretBox(path.join(dir, 'data', 'secret.key')),
    );
    for (const name of ['box', 'byprint', 'impostor', 'down'])
      keys.save(workspace, name, readPrivateKeyFile(clientKey.file));
  }, 60_000);

  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });

  afterAll(async () => {
    agent?.kill('SIGTERM');
    await sshd?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the chosen key is sealed in ssh-keys.json, never in clear', () => {
    const text = fs.readFileSync(path.join(dir, 'data', SSH_KEYS_FILE), 'utf8');
    const secret = fs.readFileSync(clientKey.file, 'utf8');
    const body = secret.split('\n')[1] as string;
    expect(body.length).toBeGreaterThan(20);
    expect(text).not.toContain(body);
    expect(keys.open(workspace, 'box')).toBe(secret);
  });

  it('P2.18 an allowed command runs on the target: output, exit code and cwd as for local commands; one connection reused', async () => {
    const s = sessions();
    const before = accepted(sshd.output());
    const r = await call({ command: OUT_ERR_EXIT, target: 'box' }, s);
    expect(r).toMatchObject({ kind: 'result', ok: true });
    const content = (r as ToolResult).content;
    expect(content.split('\n')[0]).toBe('Exit code: 3');
    expect(content).toContain('out');
    expect(content).toContain('err');

    const pwd = await call({ command: 'pwd', target: 'box', cwd: '/tmp' }, s);
    expect((pwd as ToolResult).content).toBe('Exit code: 0\n/tmp\n');
    const quiet = await call({ command: 'echo -n', target: 'box' }, s);
    expect((quiet as ToolResult).content).toBe('Exit code: 0\n(no output)');
    // Three calls, one login: the connection is the run's, reused.
    expect(accepted(sshd.output()) - before).toBe(1);
    expect(s.openCount).toBe(1);

    // A target checked by its fingerprint is another connection.
    const byprint = await call({ command: 'echo hi', target: 'byprint' }, s);
    expect((byprint as ToolResult).content).toBe('Exit code: 0\nhi\n');
    expect(s.openCount).toBe(2);
    await s.close();
    expect(s.openCount).toBe(0);
  });

  it('P2.18 a command the target does not allow asks, and the card says where it runs; a denied one is refused', async () => {
    const s = sessions();
    const before = accepted(sshd.output());
    const asked = await call({ command: 'cat /etc/hostname', target: 'box' }, s);
    expect(asked).toMatchObject({
      kind: 'wait',
      display: { kind: 'command', target: { name: 'box', address: `${sshd.user}@127.0.0.1:${sshd.port}` } },
    });
    expect((asked as { summary: string }).summary).toContain('runs on SSH target "box"');
    const denied = await call({ command: 'rm -rf /tmp/x; echo', target: 'box' }, s);
    expect(denied).toMatchObject({ kind: 'result', ok: false });
    expect((denied as ToolResult).content).toBe(
      'Error: the workspace policy denies this command on SSH target "box" (rule "rm *")',
    );
    // Asking or refusing connected to nothing.
    expect(accepted(sshd.output())).toBe(before);
  });

  it('P2.18 a target the policy does not name is an Error naming the known targets; local-only arguments are refused', async () => {
    const s = sessions();
    const r = await call({ command: 'echo hi', target: 'prod' }, s);
    expect((r as ToolResult).content).toBe(
      'Error: no SSH target named "prod": the workspace policy names: box, byprint, down, impostor',
    );
    const net = await call({ command: 'echo hi', target: 'box', network: ['example.com'] }, s);
    expect((net as ToolResult).content).toMatch(/^Error: network is for commands on this machine/);
    expect(s.openCount).toBe(0);
  });

  it('P2.18 a timeout stops the remote process (channel signal, then close) and says so', async () => {
    const s = sessions();
    const started = Date.now();
    const r = await call({ command: 'echo begun; sleep 41.25', target: 'box', timeout_ms: 1500 }, s);
    expect((r as ToolResult).content).toMatch(
      /^Error: the command timed out after 1\.5 s and was stopped on box\nbegun/,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await gone('sleep 41.25')).toBe(true);
    // The connection outlives the call: the next one runs on it.
    expect(((await call({ command: 'echo again', target: 'box' }, s)) as ToolResult).content).toBe(
      'Exit code: 0\nagain\n',
    );
  });

  it('P2.18 cancel ends the remote process', async () => {
    const s = sessions();
    const abort = new AbortController();
    const pending = call({ command: 'sleep 42.25', target: 'box' }, s, abort.signal);
    for (let i = 0; i < 100 && !running('sleep 42.25'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(running('sleep 42.25')).toBe(true);
    abort.abort(new Error('cancelled'));
    const r = (await pending) as ToolResult;
    expect(r.content).toMatch(/^Error: the command was cancelled and stopped on box/);
    expect(await gone('sleep 42.25')).toBe(true);
  });

  it('P2.18 a dropped connection fails the call with that reason; the next call connects again', async () => {
    const s = sessions();
    const pending = call({ command: 'sleep 43.25', target: 'box' }, s);
    for (let i = 0; i < 100 && !running('sleep 43.25'); i++) await new Promise((r) => setTimeout(r, 50));
    sshd.dropConnections();
    const r = (await pending) as ToolResult;
    expect(r.content).toMatch(/^Error: the connection to SSH target "box" \(.*\) dropped: /);
    expect(((await call({ command: 'echo back', target: 'box' }, s)) as ToolResult).content).toBe(
      'Exit code: 0\nback\n',
    );
  });

  it('P2.18 a host key other than the policy names is refused before logging in; nothing runs', async () => {
    const s = sessions();
    const before = accepted(sshd.output());
    const r = (await call({ command: 'echo should-not-run', target: 'impostor' }, s)) as ToolResult;
    expect(r.ok).toBe(false);
    expect(r.content).toContain(sshd.hostKeyFingerprint);
    expect(r.content).toContain('NOT the host key the workspace policy names');
    expect(accepted(sshd.output())).toBe(before);
  });

  it('P2.18 an unreachable host and a refused key are clear errors, not retried', async () => {
    const s = sessions();
    const down = (await call({ command: 'echo hi', target: 'down' }, s)) as ToolResult;
    expect(down.content).toMatch(/^Error: cannot connect to SSH target "down" \(.*\): .*ECONNREFUSED/);

    const stranger = makeKeyPair(dir, 'id_stranger');
    const other = new McpTokenStore(path.join(dir, 'other', SSH_KEYS_FILE), fileSecretBox(path.join(dir, 'other.key')));
    other.save(workspace, 'box', readPrivateKeyFile(stranger.file));
    const refused = new SshSessions(sshCredentials(workspace, other, {}), 5_000);
    open.push(refused);
    const before = (sshd.output().match(/Connection from 127\.0\.0\.1/g) ?? []).length;
    const r = (await call({ command: 'echo hi', target: 'box' }, refused)) as ToolResult;
    expect(r.content).toMatch(/^Error: SSH target "box" \(.*\) refused the key chosen in Settings/);
    expect((sshd.output().match(/Connection from 127\.0\.0\.1/g) ?? []).length - before).toBe(1);
  });

  it("P2.18 without a chosen key, the person's SSH agent is used; without either, the call says what is missing", async () => {
    const socket = path.join(dir, 'agent.sock');
    agent = spawn('ssh-agent', ['-D', '-a', socket], { stdio: 'ignore' });
    for (let i = 0; i < 200 && !fs.existsSync(socket); i++) await new Promise((r) => setTimeout(r, 25));
    execFileSync('ssh-add', [clientKey.file], { env: { ...process.env, SSH_AUTH_SOCK: socket }, stdio: 'ignore' });
    const none = new McpTokenStore(path.join(dir, 'none', SSH_KEYS_FILE), fileSecretBox(path.join(dir, 'none.key')));
    const viaAgent = new SshSessions(sshCredentials(workspace, none, { SSH_AUTH_SOCK: socket }), 5_000);
    const nothing = new SshSessions(sshCredentials(workspace, none, {}), 5_000);
    open.push(viaAgent, nothing);
    expect(((await call({ command: 'echo agent', target: 'box' }, viaAgent)) as ToolResult).content).toBe(
      'Exit code: 0\nagent\n',
    );
    expect(((await call({ command: 'echo x', target: 'box' }, nothing)) as ToolResult).content).toBe(
      'Error: no SSH agent (SSH_AUTH_SOCK is not set) and no key chosen in Settings for SSH target "box"',
    );
  });
});

// P2.18 / §2 M in real jobs: Worker + engine + the scripted model + a REAL OpenSSH sshd on loopback. The key a person
// chose through the contract is sealed (never in the DB or anywhere else in clear); the model sees `target` with the
// policy's targets; allowed commands run on the target over one connection per run, which closes when the run ends
// or parks; a command the target does not allow parks the job with a card that names the target, and runs there once
// approved; a target the policy does not name gets an Error naming the known ones.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, complete, engineHarness, SETTLED } from '../../test-support/engine-harness';
import type { RecordedRequest } from '../../test-support/scripted-llm-server';
import { type KeyPair, makeKeyPair, SSHD, startSshd, type TestSshd } from '../../test-support/sshd';
import { acceptWorkspaceSettings, tempDir } from '../../test-support/temp-maestro';
import { SSH_KEYS_FILE } from '../tools/ssh-keys';

if (!SSHD) {
  console.warn(
    '\n*** SKIPPING the SSH target job tests (P2.18): /usr/sbin/sshd is not installed (apt-get install openssh-server) ***\n',
  );
}

const toolResults = (request: RecordedRequest | undefined) =>
  ((request?.body?.messages ?? []) as { role: string; content?: string }[])
    .filter((m) => m.role === 'tool')
    .map((m) => m.content ?? '');
const count = (log: string, re: RegExp) => (log.match(re) ?? []).length;
const logins = (sshd: TestSshd) => count(sshd.output(), /Accepted publickey/g);
const logouts = (sshd: TestSshd) => count(sshd.output(), /Disconnected from user|Received disconnect/g);

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting until ${what}`);
}

/** Every file of the data dir but the sealed keys and the key they are sealed with, as text. */
function dataDirText(dataDir: string): string {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (![SSH_KEYS_FILE, 'secret.key', 'host.lock'].includes(entry.name)) out.push(full);
    }
  };
  walk(dataDir);
  return out.map((f) => fs.readFileSync(f).toString('latin1')).join('\n');
}

describe.skipIf(!SSHD)('P2.18 SSH targets in jobs (real sshd)', { timeout: 60_000 }, () => {
  let dir: string;
  let sshd: TestSshd;
  let clientKey: KeyPair;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-ssh-job-'));
    clientKey = makeKeyPair(dir, 'id_client');
    sshd = await startSshd([clientKey]);
  }, 60_000);
  afterAll(async () => {
    await sshd?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function workspaceWithTarget(): string {
    const workspace = tempDir('maestro-ws-');
    fs.mkdirSync(path.join(workspace, '.maestro'));
    const hostKey = `[127.0.0.1]:${sshd.port} ${sshd.hostKey.publicLine.split(' ').slice(0, 2).join(' ')}`;
    fs.writeFileSync(
      path.join(workspace, '.maestro', 'policy.json'),
      JSON.stringify({
        ssh: {
          targets: { box: { host: '127.0.0.1', port: sshd.port, user: sshd.user, hostKey, allow: ['echo *'] } },
        },
      }),
    );
    return workspace;
  }

  it('P2.18 the key is chosen through the contract and sealed; allowed commands share one connection per run; an unlisted one asks with "on box", runs once approved; every connection closes with its run', async () => {
    const workspace = workspaceWithTarget();
    const h = await engineHarness(
      [
        call('run_command', { command: 'echo one', target: 'box' }, 'c1'),
        call('run_command', { command: 'echo two', target: 'box' }, 'c2'),
        call('run_command', { command: 'printf "%s" "$((6*7))"', target: 'box' }, 'c3'),
        call('run_command', { command: 'echo x', target: 'prod' }, 'c4'),
        complete('ran there'),
      ],
      { policyTools: true, workspace },
    );
    // Settings list what the policy in force names (the accepted version; the agent cannot add a target).
    expect(h.maestro.invoke('listSshTargets', { workspacePath: workspace }).targets).toEqual([]);
    acceptWorkspaceSettings(h.maestro, workspace);
    // Bad input changes nothing: a public key, a target the policy does not name.
    expect(() =>
      h.maestro.invoke('saveSshTargetKey', {
        workspacePath: workspace,
        target: 'box',
        keyFile: `${clientKey.file}.pub`,
      }),
    ).toThrow(/keyFile: .*holds a public key/);
    expect(() =>
      h.maestro.invoke('saveSshTargetKey', { workspacePath: workspace, target: 'prod', keyFile: clientKey.file }),
    ).toThrow(/no SSH target named prod .*it names box/);
    expect(fs.existsSync(path.join(h.dataDir, SSH_KEYS_FILE))).toBe(false);
    const saved = h.maestro.invoke('saveSshTargetKey', {
      workspacePath: workspace,
      target: 'box',
      keyFile: clientKey.file,
    });
    expect(saved.target).toEqual({
      name: 'box',
      address: `${sshd.user}@127.0.0.1:${sshd.port}`,
      hostKey: `ssh-ed25519 ${sshd.hostKeyFingerprint}`,
      key: 'saved',
    });
    expect(h.maestro.invoke('listSshTargets', { workspacePath: workspace }).targets).toEqual([saved.target]);

    const before = { in: logins(sshd), out: logouts(sshd) };
    const { taskId, jobId } = h.createTask('Ask the box');
    const parked = await h.waitFor(jobId, SETTLED, 20_000);
    expect(parked).toMatchObject({ status: 'waiting_human', waitReason: 'tool_request' });
    // The model saw the target among run_command's arguments, its enum the policy's names.
    const tools = (h.server.requests[0]?.body?.tools ?? []) as {
      function: { name: string; parameters: { properties: Record<string, { enum?: string[] }> } };
    }[];
    const run = tools.find((t) => t.function.name === 'run_command');
    expect(run?.function.parameters.properties.target?.enum).toEqual(['box']);
    expect(toolResults(h.server.requests[2])).toEqual(['Exit code: 0\none\n', 'Exit code: 0\ntwo\n']);
    const [request] = h.maestro.invoke('listToolRequests', { taskId }).requests;
    expect(request).toMatchObject({
      tool: 'run_command',
      display: { kind: 'command', command: 'printf "%s" "$((6*7))"', target: { name: 'box' } },
    });
    expect(request?.summary).toContain('runs on SSH target "box"');
    // Two calls, one login; the parked run closed it.
    expect(logins(sshd) - before.in).toBe(1);
    await until(() => logouts(sshd) - before.out >= 1, 'the parked run closed its connection');

    h.maestro.invoke('decideToolRequest', { taskId, requestId: request?.id as string, decision: 'approve' });
    const done = await h.waitFor(jobId, ['succeeded', 'failed'], 20_000);
    expect(done.status).toBe('succeeded');
    const results = toolResults(h.server.requests.at(-1));
    expect(results).toContain('Exit code: 0\n42');
    expect(results.at(-1)).toBe('Error: no SSH target named "prod": the workspace policy names: box');
    expect(logins(sshd) - before.in).toBe(2);
    await until(() => logouts(sshd) - before.out >= 2, 'the finished run closed its connection');

    // The private key is nowhere in the data dir in clear (DB, logs, events), only sealed in ssh-keys.json.
    const secretLine = fs.readFileSync(clientKey.file, 'utf8').split('\n')[2] as string;
    expect(secretLine.length).toBeGreaterThan(20);
    expect(dataDirText(h.dataDir)).not.toContain(secretLine);
    expect(fs.readFileSync(path.join(h.dataDir, SSH_KEYS_FILE), 'utf8')).not.toContain(secretLine);

    // Back to the agent: without one, a call says what is missing.
    expect(
      h.maestro.invoke('saveSshTargetKey', { workspacePath: workspace, target: 'box', keyFile: null }).target.key,
    ).toBe('agent');
  });
});

// Settings → Hosts through SSH, against a REAL OpenSSH sshd on loopback (test-support/sshd.ts) and a real headless host
// behind it: chosen with a key file and known_hosts, an operation and its events go through the tunnel (which sends
// the remote bridge's own Host); a host key that is not in known_hosts, or a key the server refuses, is an error
// naming the field, with nothing saved.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MaestroEvent } from '../../src-shared/events';
import { type HostProcess, startHostProcess } from '../../test-support/headless-process';
import { type KeyPair, makeKeyPair, SSHD, startSshd, type TestSshd } from '../../test-support/sshd';
import { tempDir, testMaestro } from '../../test-support/temp-maestro';
import { inProcessCore } from '../app/core-connection';
import type { Maestro } from '../app/create-maestro';
import { fileSecretBox } from '../llm/secret-box';
import { HostChooser } from './host-chooser';
import { HOSTS_FILE } from './host-file';

describe.skipIf(!SSHD)('the desktop as a client of a host through SSH', { timeout: 90_000 }, () => {
  let dir: string;
  let sshd: TestSshd;
  let host: HostProcess;
  let clientKey: KeyPair;
  let knownHosts: string;
  let local: Maestro;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-host-ssh-'));
    clientKey = makeKeyPair(dir, 'id_client');
    sshd = await startSshd([clientKey]);
    host = await startHostProcess(path.join(dir, 'data'), dir, {}, ['--host-name', 'workstation']);
    const [type, blob] = sshd.hostKey.publicLine.split(' ');
    knownHosts = path.join(dir, 'known_hosts');
    fs.writeFileSync(knownHosts, `[127.0.0.1]:${sshd.port} ${type} ${blob}\n`);
    local = testMaestro();
  }, 60_000);
  afterAll(async () => {
    await local?.close();
    host.child.kill('SIGTERM');
    await host.exited;
    await sshd.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const chooserIn = (dataDir: string, knownHostsFile = knownHosts) =>
    new HostChooser(inProcessCore(local), {
      dataDir,
      box: fileSecretBox(path.join(dataDir, 'secret.key')),
      dial: { knownHostsFile },
    });
  const ssh = (over: Record<string, unknown> = {}) => ({
    kind: 'ssh',
    host: '127.0.0.1',
    port: sshd.port,
    user: sshd.user,
    auth: 'key',
    keyFile: clientKey.file,
    remotePort: Number(new URL(host.url).port),
    token: host.token,
    ...over,
  });

  it('P10.14 chosen with a key file: an operation and its events go through the tunnel to the host', async () => {
    const dataDir = tempDir('maestro-desktop-');
    const chooser = chooserIn(dataDir);
    expect(await chooser.choose(ssh())).toEqual({
      ok: true,
      value: { kind: 'ssh', name: 'workstation', address: `${sshd.user}@127.0.0.1:${sshd.port}` },
    });
    expect(fs.readFileSync(path.join(dataDir, HOSTS_FILE), 'utf8')).not.toContain(host.token);
    const events: MaestroEvent[] = [];
    chooser.connection.onEvent((e) => events.push(e));
    const remote = chooser.remoteConnection;
    for (let i = 0; i < 400 && !remote?.streaming; i++) await new Promise((r) => setTimeout(r, 25));
    const created = await chooser.connection.call('createTask', { instruction: 'over ssh' });
    expect(created.ok).toBe(true);
    const taskId = (created as { value: { task: { id: string } } }).value.task.id;
    const deadline = Date.now() + 20_000;
    while (!events.some((e) => e.type === 'task.created' && e.taskId === taskId)) {
      if (Date.now() > deadline) throw new Error('no task.created event through the tunnel');
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(remote?.lastEventId).toBeGreaterThan(0);
    expect(await chooser.connection.call('listTasks', {})).toMatchObject({
      ok: true,
      value: { tasks: expect.arrayContaining([expect.objectContaining({ id: taskId })]) },
    });
    await chooser.connection.use(null);
  });

  it('a host key not in known_hosts, a refused key or a wrong token: the field named, nothing saved', async () => {
    const dataDir = tempDir('maestro-desktop-');
    const wrongKey = makeKeyPair(dir, 'id_wrong');
    const cases: [Record<string, unknown>, string | undefined, string, RegExp][] = [
      [{}, path.join(dir, 'empty_known_hosts'), 'host', /is not in .*empty_known_hosts; it presented/],
      [{ keyFile: wrongKey.file }, undefined, 'user', /refused the key in/],
      [{ token: 'wrong' }, undefined, 'token', /refused the token \(HTTP 401\)/],
      [{ remotePort: 1 }, undefined, 'remotePort', /would not forward to 127\.0\.0\.1:1/],
      [{ auth: 'key', keyFile: undefined }, undefined, 'keyFile', /the key file is required/],
    ];
    for (const [over, knownHostsFile, field, message] of cases) {
      const chooser = chooserIn(dataDir, knownHostsFile);
      const answer = await chooser.choose(ssh(over));
      expect(answer.ok, field).toBe(false);
      if (answer.ok) continue;
      expect(answer.error.message, field).toMatch(message);
      expect(answer.error.issues?.[0]?.path, field).toEqual([field]);
      expect(fs.existsSync(path.join(dataDir, HOSTS_FILE)), field).toBe(false);
      expect(chooser.current().kind).toBe('local');
    }
  });
});

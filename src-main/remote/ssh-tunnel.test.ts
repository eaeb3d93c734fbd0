// The SSH tunnel against a REAL OpenSSH sshd on loopback (temp config, host key and authorized_keys) and a real
// headless host behind it: reached through the tunnel with its token; an unknown, changed or revoked host key, a key
// the server does not accept and a passphrase-protected key are refused with nothing forwarded; closing frees the port.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostProcess, startHostProcess } from '../../test-support/headless-process';
import { type KeyPair, makeKeyPair, SSHD, startSshd, type TestSshd } from '../../test-support/sshd';
import { openSshTunnel, type SshTunnel, SshTunnelError, type SshTunnelOptions } from './ssh-tunnel';

if (!SSHD) {
  console.warn(
    '\n*** SKIPPING the SSH tunnel tests: /usr/sbin/sshd is not installed (apt-get install openssh-server) ***\n',
  );
}

function get(tunnel: SshTunnel, apiPath: string, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: tunnel.localPort,
        path: `/api/local${apiPath}`,
        agent: false,
        headers: { host: tunnel.hostHeader, authorization: `Bearer ${token}` },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (c: string) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function connectable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function refusal(options: SshTunnelOptions): Promise<SshTunnelError> {
  const error = await openSshTunnel(options).then(
    (tunnel) => {
      void tunnel.close();
      throw new Error('the tunnel opened');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SshTunnelError);
  return error as SshTunnelError;
}

const accepted = (log: string) => (log.match(/Accepted publickey/g) ?? []).length;

describe.skipIf(!SSHD)('SSH tunnel to a host', { timeout: 60_000 }, () => {
  let dir: string;
  let sshd: TestSshd;
  let host: HostProcess;
  let clientKey: KeyPair;
  let knownHosts: string;
  let hashedKnownHosts: string;
  let base: Omit<SshTunnelOptions, 'auth' | 'knownHostsFile'>;
  let agent: ChildProcess | undefined;

  beforeAll(async () => {
    // Kept for the whole file (tempDir() is emptied after each test).
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-ssh-tunnel-'));
    clientKey = makeKeyPair(dir, 'id_client');
    sshd = await startSshd([clientKey]);
    host = await startHostProcess(path.join(dir, 'data'), dir, {}, ['--host-name', 'workstation']);
    const [type, blob] = sshd.hostKey.publicLine.split(' ');
    knownHosts = path.join(dir, 'known_hosts');
    fs.writeFileSync(knownHosts, `# the test's sshd\n[127.0.0.1]:${sshd.port} ${type} ${blob}\n`);
    // Hashed by OpenSSH itself, as HashKnownHosts writes them.
    hashedKnownHosts = path.join(dir, 'known_hosts_hashed');
    fs.copyFileSync(knownHosts, hashedKnownHosts);
    execFileSync('ssh-keygen', ['-H', '-f', hashedKnownHosts], { stdio: 'ignore' });
    expect(fs.readFileSync(hashedKnownHosts, 'utf8')).toMatch(/^\|1\|/m);
    base = { host: '127.0.0.1', port: sshd.port, user: sshd.user, remotePort: Number(new URL(host.url).port) };
  }, 60_000);

  afterAll(async () => {
    agent?.kill('SIGTERM');
    host.child.kill('SIGTERM');
    await host.exited;
    await sshd.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('with a key file and a plain known_hosts entry: /health of the host behind it answers with its token; closing leaves no listening port', async () => {
    const tunnel = await openSshTunnel({
      ...base,
      knownHostsFile: knownHosts,
      auth: { kind: 'key', file: clientKey.file },
    });
    expect(tunnel.hostKey).toBe(sshd.hostKeyFingerprint);
    expect(tunnel.url).toBe(`http://127.0.0.1:${tunnel.localPort}`);
    expect(tunnel.localPort).not.toBe(base.remotePort);
    const health = await get(tunnel, '/health', host.token);
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toEqual({ ok: true, version: expect.any(String), host: 'workstation' });
    expect((await get(tunnel, '/health', 'wrong-token')).status).toBe(401);

    await tunnel.close();
    await tunnel.closed;
    expect(await connectable(tunnel.localPort)).toBe(false);
  });

  it("with the person's SSH agent and a hashed known_hosts entry", async () => {
    const socket = path.join(dir, 'agent.sock');
    agent = spawn('ssh-agent', ['-D', '-a', socket], { stdio: 'ignore' });
    for (let i = 0; i < 200 && !fs.existsSync(socket); i++) await new Promise((r) => setTimeout(r, 25));
    execFileSync('ssh-add', [clientKey.file], { env: { ...process.env, SSH_AUTH_SOCK: socket }, stdio: 'ignore' });

    const tunnel = await openSshTunnel({ ...base, knownHostsFile: hashedKnownHosts, auth: { kind: 'agent', socket } });
    expect((await get(tunnel, '/health', host.token)).status).toBe(200);
    await tunnel.close();
    expect(await connectable(tunnel.localPort)).toBe(false);
  });

  it('a dropped SSH connection ends the tunnel: closed settles and the local port is free', async () => {
    const tunnel = await openSshTunnel({
      ...base,
      knownHostsFile: knownHosts,
      auth: { kind: 'key', file: clientKey.file },
    });
    expect((await get(tunnel, '/health', host.token)).status).toBe(200);
    sshd.dropConnections();
    await tunnel.closed;
    expect(await connectable(tunnel.localPort)).toBe(false);
  });

  it('an unknown host key is refused before authenticating, with its fingerprint; nothing is forwarded', async () => {
    const before = accepted(sshd.output());
    const elsewhere = path.join(dir, 'known_hosts_other');
    fs.writeFileSync(elsewhere, `other.example ${sshd.hostKey.publicLine.split(' ').slice(0, 2).join(' ')}\n`);
    for (const file of [elsewhere, path.join(dir, 'no-such-known-hosts')]) {
      const error = await refusal({ ...base, knownHostsFile: file, auth: { kind: 'key', file: clientKey.file } });
      expect(error.code).toBe('unknown_host_key');
      expect(error.message).toContain(sshd.hostKeyFingerprint);
      expect(error.message).toContain(`is not in ${file}`);
    }
    expect(accepted(sshd.output())).toBe(before);
  });

  it('a host key that differs from the one known_hosts holds, or one marked @revoked, is refused', async () => {
    const before = accepted(sshd.output());
    const impostor = makeKeyPair(dir, 'impostor');
    const changed = path.join(dir, 'known_hosts_changed');
    const [type, blob] = impostor.publicLine.split(' ');
    fs.writeFileSync(changed, `[127.0.0.1]:${sshd.port} ${type} ${blob}\n`);
    const mismatch = await refusal({ ...base, knownHostsFile: changed, auth: { kind: 'key', file: clientKey.file } });
    expect(mismatch.code).toBe('host_key_mismatch');
    expect(mismatch.message).toContain(sshd.hostKeyFingerprint);
    expect(mismatch.message).toContain('NOT the key');

    const revoked = path.join(dir, 'known_hosts_revoked');
    const [hostType, hostBlob] = sshd.hostKey.publicLine.split(' ');
    fs.writeFileSync(revoked, `${fs.readFileSync(knownHosts, 'utf8')}@revoked * ${hostType} ${hostBlob}\n`);
    const error = await refusal({ ...base, knownHostsFile: revoked, auth: { kind: 'key', file: clientKey.file } });
    expect(error.code).toBe('revoked_host_key');
    expect(accepted(sshd.output())).toBe(before);
  });

  it('a key the server does not accept, or a passphrase-protected one, is refused with the file named', async () => {
    const before = accepted(sshd.output());
    const wrong = makeKeyPair(dir, 'id_wrong');
    const error = await refusal({ ...base, knownHostsFile: knownHosts, auth: { kind: 'key', file: wrong.file } });
    expect(error.code).toBe('auth_failed');
    expect(error.message).toBe(`${sshd.user}@127.0.0.1:${sshd.port} refused the key in ${wrong.file}`);

    const locked = makeKeyPair(dir, 'id_locked', 'correct horse');
    const encrypted = await refusal({ ...base, knownHostsFile: knownHosts, auth: { kind: 'key', file: locked.file } });
    expect(encrypted.code).toBe('encrypted_key');
    expect(encrypted.message).toContain(locked.file);
    const missing = await refusal({
      ...base,
      knownHostsFile: knownHosts,
      auth: { kind: 'key', file: path.join(dir, 'nope') },
    });
    expect(missing.code).toBe('bad_key_file');
    const noAgent = await refusal({ ...base, knownHostsFile: knownHosts, auth: { kind: 'agent', socket: '' } });
    expect(noAgent.code).toBe('no_agent');
    expect(accepted(sshd.output())).toBe(before);
  });

  it('a port the remote host does not listen on is refused at open, not at the first request', async () => {
    const error = await refusal({
      ...base,
      remotePort: 1,
      knownHostsFile: knownHosts,
      auth: { kind: 'key', file: clientKey.file },
    });
    expect(error.code).toBe('forward_failed');
    expect(error.message).toContain('127.0.0.1:1');
  });
});

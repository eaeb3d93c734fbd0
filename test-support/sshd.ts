// Test support: a real OpenSSH sshd on 127.0.0.1 with a temp config, host key (ssh-keygen) and authorized_keys, for
// the current user; and key pairs made by ssh-keygen. `SSHD` is undefined where sshd is not installed (tests skip).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const SSHD = fs.existsSync('/usr/sbin/sshd') ? '/usr/sbin/sshd' : undefined;
const READY_TIMEOUT_MS = 15_000;

export interface KeyPair {
  file: string;
  publicLine: string;
}

export interface TestSshd {
  port: number;
  user: string;
  dir: string;
  hostKey: KeyPair;
  /** `ssh-keygen -l` of the host key: `SHA256:…`. */
  hostKeyFingerprint: string;
  output(): string;
  /** Kills the per-connection sshd processes (children of the listener): every SSH session drops at once. */
  dropConnections(): void;
  stop(): Promise<void>;
}

/** `passphrase`: an encrypted key. */
export function makeKeyPair(dir: string, name: string, passphrase = ''): KeyPair {
  const file = path.join(dir, name);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', passphrase, '-C', name, '-f', file], { stdio: 'ignore' });
  return { file, publicLine: fs.readFileSync(`${file}.pub`, 'utf8').trim() };
}

export function sshFingerprint(key: KeyPair): string {
  const line = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${key.file}.pub`], { encoding: 'utf8' });
  return line.split(' ')[1] as string;
}

/** Starts sshd in the foreground (-D -e) accepting `authorized` keys for the current user, once it listens. */
export async function startSshd(authorized: KeyPair[]): Promise<TestSshd> {
  if (!SSHD) throw new Error('sshd is not installed');
  // sshd refuses to start without its privilege-separation dir (made by the package's service, absent in containers).
  fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-sshd-'));
  const hostKey = makeKeyPair(dir, 'host_ed25519');
  const authorizedKeys = path.join(dir, 'authorized_keys');
  fs.writeFileSync(authorizedKeys, `${authorized.map((k) => k.publicLine).join('\n')}\n`, { mode: 0o600 });
  const config = path.join(dir, 'sshd_config');
  fs.writeFileSync(config, '');
  const port = await freePort();
  const user = os.userInfo().username;
  const options = {
    Port: String(port),
    ListenAddress: '127.0.0.1',
    HostKey: hostKey.file,
    PidFile: 'none',
    AuthorizedKeysFile: authorizedKeys,
    // The temp dir's owners and modes are not sshd's business in a test.
    StrictModes: 'no',
    UsePAM: 'no',
    PasswordAuthentication: 'no',
    KbdInteractiveAuthentication: 'no',
    PubkeyAuthentication: 'yes',
    PermitRootLogin: 'prohibit-password',
    AllowTcpForwarding: 'local',
    AllowAgentForwarding: 'no',
    X11Forwarding: 'no',
    LogLevel: 'VERBOSE',
  };
  const args = ['-D', '-e', '-f', config, ...Object.entries(options).flatMap(([k, v]) => ['-o', `${k}=${v}`])];
  const child: ChildProcess = spawn(SSHD, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout?.setEncoding('utf8').on('data', (c: string) => {
    log += c;
  });
  child.stderr?.setEncoding('utf8').on('data', (c: string) => {
    log += c;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!/Server listening on 127\.0\.0\.1 port/.test(log)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`sshd did not start:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    port,
    user,
    dir,
    hostKey,
    hostKeyFingerprint: sshFingerprint(hostKey),
    output: () => log,
    dropConnections() {
      const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(child.pid)], { encoding: 'utf8' }).split(
        '\n',
      );
      for (const pid of children.map((p) => Number(p.trim())).filter((p) => p > 0)) process.kill(pid, 'SIGKILL');
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

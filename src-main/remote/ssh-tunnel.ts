// The desktop's "host through SSH": an SSH connection (ssh2) whose server key must be in known_hosts, authenticated by
// the person's SSH agent or a key file, forwarding a random 127.0.0.1 port to the remote host's bridge port.
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type ConnectConfig, Client as SshClient, utils } from 'ssh2';
import {
  fingerprint,
  hostKeyAlgorithms,
  type KnownKeys,
  keyType,
  knownHostsName,
  knownKeysFor,
} from '../ssh/known-hosts';

export type SshAuth = { kind: 'agent'; socket?: string } | { kind: 'key'; file: string };

export interface SshTunnelOptions {
  host: string;
  port?: number;
  user: string;
  auth: SshAuth;
  /** Default: ~/.ssh/known_hosts. */
  knownHostsFile?: string;
  /** The bridge as the remote host sees it: default 127.0.0.1. */
  remoteHost?: string;
  remotePort: number;
  readyTimeoutMs?: number;
}

export interface SshTunnel {
  /** The forwarded port, on 127.0.0.1 only. */
  localPort: number;
  url: string;
  /**
   * The Host header to send through the tunnel: the remote bridge answers only its own loopback name and port
   * (DNS rebinding), and the local port differs from it.
   */
  hostHeader: string;
  /** The server key's fingerprint, as checked against known_hosts. */
  hostKey: string;
  /** Settles once the tunnel is closed, by close() or because the SSH connection ended. */
  closed: Promise<void>;
  close(): Promise<void>;
}

export type SshTunnelErrorCode =
  | 'unknown_host_key'
  | 'host_key_mismatch'
  | 'revoked_host_key'
  | 'no_agent'
  | 'bad_key_file'
  | 'encrypted_key'
  | 'auth_failed'
  | 'connect_failed'
  | 'forward_failed';

export class SshTunnelError extends Error {
  constructor(
    readonly code: SshTunnelErrorCode,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Connects, checks the host key, authenticates and starts forwarding; nothing is left open when it throws. */
export async function openSshTunnel(options: SshTunnelOptions): Promise<SshTunnel> {
  const port = options.port ?? 22;
  const where = `${options.user}@${options.host}:${port}`;
  const knownHostsFile = options.knownHostsFile ?? path.join(os.homedir(), '.ssh', 'known_hosts');
  const known = knownKeysFor(readKnownHosts(knownHostsFile), options.host, port);
  const remoteHost = options.remoteHost ?? '127.0.0.1';
  const client = new SshClient();
  let refusal: SshTunnelError | undefined;
  let hostKey = '';
  const config: ConnectConfig = {
    host: options.host,
    port,
    username: options.user,
    readyTimeout: options.readyTimeoutMs ?? 15_000,
    ...authConfig(options.auth),
    // Asks for the key types known_hosts holds for this host, so a server with several keys shows a known one.
    ...(known.types.length > 0 ? { algorithms: { serverHostKey: hostKeyAlgorithms(known) } } : {}),
    hostVerifier: (key: Buffer) => {
      hostKey = fingerprint(key);
      refusal = hostKeyRefusal(key, known, { where, name: knownHostsName(options.host, port), knownHostsFile });
      return refusal === undefined;
    },
  };

  await new Promise<void>((resolve, reject) => {
    const fail = (error: Error & { level?: string }) => {
      client.end();
      if (refusal) return reject(refusal);
      if (error.level === 'client-authentication') {
        const offered =
          options.auth.kind === 'key' ? `the key in ${options.auth.file}` : 'every key the SSH agent offered';
        return reject(new SshTunnelError('auth_failed', `${where} refused ${offered}`));
      }
      reject(new SshTunnelError('connect_failed', `cannot connect to ${where}: ${error.message}`));
    };
    client.once('ready', () => {
      client.off('error', fail);
      resolve();
    });
    client.once('error', fail);
    client.connect(config);
  });
  // A later failure of the connection ends the tunnel (see `closed`); it must not be an unhandled 'error'.
  client.on('error', () => {});

  try {
    await probeForward(client, remoteHost, options.remotePort);
  } catch (error) {
    client.end();
    throw new SshTunnelError(
      'forward_failed',
      `${where} would not forward to ${remoteHost}:${options.remotePort}: ${(error as Error).message}`,
    );
  }
  return startForwarding(client, remoteHost, options.remotePort, hostKey);
}

function readKnownHosts(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw new SshTunnelError(
      'unknown_host_key',
      `${file} cannot be read (${(error as NodeJS.ErrnoException).code}): no host key to check against`,
    );
  }
}

function authConfig(auth: SshAuth): Pick<ConnectConfig, 'agent' | 'privateKey'> {
  switch (auth.kind) {
    case 'agent': {
      const socket = auth.socket ?? process.env.SSH_AUTH_SOCK;
      if (!socket) throw new SshTunnelError('no_agent', 'no SSH agent: SSH_AUTH_SOCK is not set');
      return { agent: socket };
    }
    case 'key': {
      let data: Buffer;
      try {
        data = fs.readFileSync(auth.file);
      } catch (error) {
        throw new SshTunnelError(
          'bad_key_file',
          `${auth.file} cannot be read (${(error as NodeJS.ErrnoException).code})`,
        );
      }
      const parsed = utils.parseKey(data);
      if (parsed instanceof Error) {
        // Typing a passphrase is not offered here: the agent is the place for a protected key.
        if (/passphrase|encrypted/i.test(parsed.message)) {
          throw new SshTunnelError(
            'encrypted_key',
            `${auth.file} is protected by a passphrase: add it to your SSH agent (ssh-add) and use the agent`,
          );
        }
        throw new SshTunnelError('bad_key_file', `${auth.file} is not a private key ssh can use (${parsed.message})`);
      }
      return { privateKey: data };
    }
    default: {
      const never: never = auth;
      throw new Error(`unknown SSH auth ${JSON.stringify(never)}`);
    }
  }
}

function hostKeyRefusal(
  key: Buffer,
  known: KnownKeys,
  at: { where: string; name: string; knownHostsFile: string },
): SshTunnelError | undefined {
  const shown = `${keyType(key)} ${fingerprint(key)}`;
  if (known.revoked.some((k) => k.equals(key))) {
    return new SshTunnelError(
      'revoked_host_key',
      `${at.where} presented ${shown}, marked @revoked in ${at.knownHostsFile}`,
    );
  }
  if (known.accepted.some((k) => k.equals(key))) return undefined;
  if (known.accepted.length === 0) {
    return new SshTunnelError(
      'unknown_host_key',
      `${at.where} is not in ${at.knownHostsFile}; it presented ${shown}. If that is the host's key, add it ` +
        `(e.g. ssh-keyscan -p PORT HOST >> known_hosts after checking the fingerprint with the host's owner)`,
    );
  }
  return new SshTunnelError(
    'host_key_mismatch',
    `${at.where} presented ${shown}, which is NOT the key ${at.knownHostsFile} holds for ${at.name}: ` +
      'someone may be in the middle, or the host was reinstalled; nothing was sent',
  );
}

/**
 * One channel opened and closed at once (sshd opens it only once it has connected to the port): a server that refuses
 * forwarding, or a bridge that is not there, is said now, not at the first request.
 */
function probeForward(client: SshClient, remoteHost: string, remotePort: number): Promise<void> {
  return new Promise((resolve, reject) => {
    client.forwardOut('127.0.0.1', 0, remoteHost, remotePort, (error, channel) => {
      if (error) return reject(error);
      channel.close();
      resolve();
    });
  });
}

async function startForwarding(
  client: SshClient,
  remoteHost: string,
  remotePort: number,
  hostKey: string,
): Promise<SshTunnel> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    client.forwardOut(
      socket.remoteAddress ?? '127.0.0.1',
      socket.remotePort ?? 0,
      remoteHost,
      remotePort,
      (error, channel) => {
        if (error) return socket.destroy();
        socket.pipe(channel).pipe(socket);
        channel.on('close', () => socket.destroy());
        socket.on('close', () => channel.close());
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  }).catch((error: Error) => {
    client.end();
    throw new SshTunnelError('forward_failed', `cannot listen on 127.0.0.1: ${error.message}`);
  });
  const localPort = (server.address() as AddressInfo).port;

  // Registered while the connection is up: `closed` settles however it ends.
  const sshEnded = new Promise<void>((resolve) => client.once('close', () => resolve()));
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      client.end();
      await Promise.all([serverClosed, sshEnded]);
    })();
    return closing;
  };
  const closed = sshEnded.then(() => close());
  return {
    localPort,
    url: `http://127.0.0.1:${localPort}`,
    hostHeader: `${net.isIPv6(remoteHost) ? `[${remoteHost}]` : remoteHost}:${remotePort}`,
    hostKey,
    closed,
    close,
  };
}

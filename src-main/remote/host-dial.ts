// Reaching the host a person chose in Settings → Hosts, and checking it before anything is saved: its trust (a
// certificate file or an SPKI pin for a self-signed host), the way there (TLS, or an SSH tunnel checked against
// known_hosts), then its /health with the token. Whatever does not check out is an `invalid_input` error naming the
// field at fault and what failed; nothing is left open.

import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import { contract } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import type { HostChoice, HostView } from '../../src-shared/hosts';
import type { DialHost, HostLink } from './host-connection';
import { certificateForPin, type HostEndpoint, HostError, hostRequest } from './host-endpoint';
import { openSshTunnel, SshTunnelError, type SshTunnelErrorCode } from './ssh-tunnel';

export type RemoteChoice = Exclude<HostChoice, { kind: 'local' }>;

export interface DialOptions {
  /** Default: ~/.ssh/known_hosts. */
  knownHostsFile?: string;
  timeoutMs?: number;
}

const CHECK_TIMEOUT_MS = 10_000;

/** A field of the form and what is wrong with it. */
const wrong = (field: string, message: string) =>
  new MaestroError('invalid_input', message, [{ path: [field], message }]);

export const hostAddress = (choice: RemoteChoice): string =>
  choice.kind === 'tls' ? choice.url : `${choice.user}@${choice.host}:${choice.port}`;

/** The certificate the host must present, read (and checked to be one) before any connection. */
function trustedCertificate(file: string): Buffer {
  let pem: Buffer;
  try {
    pem = fs.readFileSync(file);
  } catch (error) {
    throw wrong('certFile', `${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    new X509Certificate(pem);
  } catch {
    throw wrong('certFile', `${file} is not a PEM certificate`);
  }
  return pem;
}

const SSH_FIELDS: Record<SshTunnelErrorCode, string> = {
  unknown_host_key: 'host',
  host_key_mismatch: 'host',
  revoked_host_key: 'host',
  connect_failed: 'host',
  no_agent: 'auth',
  bad_key_file: 'keyFile',
  encrypted_key: 'keyFile',
  auth_failed: 'user',
  forward_failed: 'remotePort',
};

/** How to (re)open the way to the host; a certificate file is read here, so a bad one is said at once. */
export async function dialerFor(choice: RemoteChoice, options: DialOptions = {}): Promise<DialHost> {
  switch (choice.kind) {
    case 'tls': {
      // A pinned certificate is fetched at the first dial, not here: a saved host that is down at the app's start
      // is reached again later instead of failing the start.
      let ca = choice.certFile ? trustedCertificate(choice.certFile) : undefined;
      const pinned = async (pin: string) => {
        try {
          return await certificateForPin(choice.url, pin, options.timeoutMs ?? CHECK_TIMEOUT_MS);
        } catch (error) {
          if (error instanceof HostError) throw wrong(error.code === 'certificate' ? 'spkiPin' : 'url', error.message);
          throw error;
        }
      };
      return async () => {
        if (!ca && choice.spkiPin) ca = await pinned(choice.spkiPin);
        const endpoint: HostEndpoint = {
          url: choice.url,
          token: choice.token,
          ...(ca ? { ca } : {}),
          ...(choice.spkiPin ? { spkiPin: choice.spkiPin } : {}),
        };
        return { endpoint, close: async () => {} };
      };
    }
    case 'ssh':
      return async (): Promise<HostLink> => {
        try {
          const tunnel = await openSshTunnel({
            host: choice.host,
            port: choice.port,
            user: choice.user,
            auth: choice.auth === 'key' ? { kind: 'key', file: choice.keyFile ?? '' } : { kind: 'agent' },
            knownHostsFile: options.knownHostsFile,
            remotePort: choice.remotePort,
            readyTimeoutMs: options.timeoutMs ?? CHECK_TIMEOUT_MS,
          });
          return {
            endpoint: { url: tunnel.url, token: choice.token, hostHeader: tunnel.hostHeader },
            closed: tunnel.closed,
            close: tunnel.close,
          };
        } catch (error) {
          if (error instanceof SshTunnelError) throw wrong(SSH_FIELDS[error.code], error.message);
          throw error;
        }
      };
    default: {
      const never: never = choice;
      throw new Error(`unknown host kind ${JSON.stringify(never)}`);
    }
  }
}

/** Reaches the chosen host and reads its /health with the token; answers its name and the open link. */
export async function checkHost(
  choice: RemoteChoice,
  options: DialOptions = {},
): Promise<{ dial: DialHost; link: HostLink; view: HostView }> {
  const dial = await dialerFor(choice, options);
  const link = await dial();
  const where = hostAddress(choice);
  const reachField = choice.kind === 'tls' ? 'url' : 'remotePort';
  try {
    let answer: Awaited<ReturnType<typeof hostRequest>>;
    try {
      answer = await hostRequest(link.endpoint, {
        method: 'GET',
        path: '/api/local/health',
        timeoutMs: options.timeoutMs ?? CHECK_TIMEOUT_MS,
      });
    } catch (error) {
      if (!(error instanceof HostError)) throw error;
      const certField = choice.kind === 'tls' && choice.spkiPin ? 'spkiPin' : 'certFile';
      throw wrong(error.code === 'certificate' && choice.kind === 'tls' ? certField : reachField, error.message);
    }
    if (answer.status === 401)
      throw wrong('token', `${where} refused the token (HTTP 401): copy it from the host's bridge.json`);
    if (answer.status === 403) {
      throw wrong(
        reachField,
        `${where} refused the name it was reached by (HTTP 403, its DNS-rebinding check): use a name its certificate covers`,
      );
    }
    const health = contract.health.output.safeParse(answer.json);
    if (answer.status !== 200 || !health.success) {
      throw wrong(reachField, `${where} answered HTTP ${answer.status} but not as a MAESTRO host: is it one?`);
    }
    return { dial, link, view: { kind: choice.kind, name: health.data.host, address: where } };
  } catch (error) {
    await link.close();
    throw error;
  }
}

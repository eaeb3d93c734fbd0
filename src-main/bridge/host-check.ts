// Which `Host` headers the bridge answers (DNS rebinding): its loopback names at its port, and over TLS also the names
// its certificate covers, matched as a TLS client matches them. A rebound name is none of these: a browser sends the
// name from its address bar, and over TLS it would not have accepted our certificate for that name anyway.
import net from 'node:net';
import type { TlsIdentity } from './tls-identity';

export type HostCheck = (hostHeader: string | undefined) => boolean;

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '::1']);

export function hostCheck(port: number, tls: TlsIdentity | undefined): HostCheck {
  const defaultPort = tls ? 443 : 80;
  return (header) => {
    const parsed = parseHost((header ?? '').toLowerCase());
    if (!parsed || (parsed.port ?? defaultPort) !== port) return false;
    if (LOOPBACK_NAMES.has(parsed.name)) return true;
    if (!tls) return false;
    return net.isIP(parsed.name) !== 0
      ? tls.certificate.checkIP(parsed.name) !== undefined
      : tls.certificate.checkHost(parsed.name, { subject: 'never', wildcards: true, partialWildcards: false }) !==
          undefined;
  };
}

/** `name`, `name:port`, `[v6]` or `[v6]:port`; anything else (a path, a user, spaces, a second colon) is no host. */
function parseHost(value: string): { name: string; port?: number } | undefined {
  const match = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9.-]+))(?::(\d{1,5}))?$/.exec(value);
  if (!match) return undefined;
  const name = (match[1] ?? match[2]) as string;
  return match[3] === undefined ? { name } : { name, port: Number(match[3]) };
}

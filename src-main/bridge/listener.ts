// Where the bridge listens and how: plain HTTP on loopback only, HTTPS anywhere (beyond loopback never without TLS),
// and the URL callers are given for it.
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import type { TlsIdentity } from './tls-identity';

/** The addresses plain HTTP may listen on: this machine only. */
const LOOPBACK_BINDS = new Set(['127.0.0.1', '::1', 'localhost']);

export const DEFAULT_BIND = '127.0.0.1';

export interface ListenPlan {
  bind: string;
  tls?: TlsIdentity;
}

/** Why a plan may not be served, or undefined when it may. */
export function listenPlanProblem(plan: ListenPlan): string | undefined {
  if (plan.bind !== 'localhost' && net.isIP(plan.bind) === 0) {
    return `--bind must be an IP address (e.g. 0.0.0.0, 192.168.1.5, ::) or localhost, got "${plan.bind}"`;
  }
  if (!plan.tls && !LOOPBACK_BINDS.has(plan.bind)) {
    return `--bind ${plan.bind} serves beyond this machine: give --tls-cert FILE and --tls-key FILE (never without TLS)`;
  }
  return undefined;
}

export function createBridgeServer(plan: ListenPlan, handler: http.RequestListener): http.Server {
  const problem = listenPlanProblem(plan);
  if (problem) throw new Error(problem);
  return plan.tls
    ? https.createServer({ cert: plan.tls.cert, key: plan.tls.key }, handler)
    : http.createServer(handler);
}

/** Listens (port 0: any free one) and answers the port; a later server error is logged. */
export async function listen(server: http.Server, plan: ListenPlan, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, plan.bind, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => console.error('bridge server error:', error));
  return (server.address() as AddressInfo).port;
}

/**
 * Plain: the loopback address. TLS: the certificate's first name, the one clients can verify (the bind address, e.g.
 * 0.0.0.0, is no address to call and rarely a name in the certificate).
 */
export function bridgeUrl(plan: ListenPlan, port: number): string {
  const name = plan.tls ? (plan.tls.names[0] as string) : plan.bind === '::1' ? '::1' : '127.0.0.1';
  const host = net.isIPv6(name) ? `[${name}]` : name;
  return `${plan.tls ? 'https' : 'http'}://${host}:${port}`;
}

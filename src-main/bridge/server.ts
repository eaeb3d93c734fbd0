// The HTTP bridge: every contract operation under /api/local (bearer token, our own Host names only), SSE events, and
// the built renderer at /; plain HTTP on loopback, HTTPS beyond. Errors always have the shape
// { error: { code, message, issues? } }.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_PREFIX, EVENTS_PATH } from '../../src-shared/contract';
import { ERROR_STATUS, type ErrorBody, errorBody, MaestroError } from '../../src-shared/errors';
import { AGENT_CARD_PATH } from '../a2a/agent-card';
import { a2aHost } from '../app/a2a-host';
import type { Maestro } from '../app/create-maestro';
import { STORAGE_RETRY_AFTER_S, storageErrorBody, storageFault } from '../db/storage-fault';
import { A2A_PATH, A2aEndpoint } from './a2a-endpoint';
import { BridgeCallers } from './callers';
import { type HostCheck, hostCheck } from './host-check';
import { sendJson } from './json-http';
import { bridgeUrl, createBridgeServer, DEFAULT_BIND, listen } from './listener';
import { serveOperation } from './operation-request';
import { streamEvents } from './sse';
import { serveStatic } from './static-files';
import type { TlsIdentity } from './tls-identity';

export { MAX_BODY_BYTES } from './json-http';

export interface BridgeOptions {
  maestro: Maestro;
  token: string;
  port?: number;
  /** The built renderer; without it / answers 404. */
  staticDir?: string;
  /** The address to listen on (default 127.0.0.1); beyond loopback only with `tls`. */
  bind?: string;
  /** Serves HTTPS with this certificate, and answers the names it covers besides loopback. */
  tls?: TlsIdentity;
}

export interface Bridge {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startBridge(options: BridgeOptions): Promise<Bridge> {
  // The owner's token (bridge.json) or a caller's (POST /callers), each answered as callers.ts says.
  const callers = new BridgeCallers(
    options.maestro,
    options.token,
    () => a2a,
    () => publicUrl,
  );
  // Error messages may quote what the caller sent (a path, an id); the token never goes back out.
  // A locked, full or failing database is the caller's to retry (503 + Retry-After with a stable code), never a bare
  // 500: nothing of the request was written (each operation is one transaction).
  const fail = (res: ServerResponse, error: unknown) => {
    const fault = storageFault(error);
    if (fault) res.setHeader('retry-after', String(STORAGE_RETRY_AFTER_S));
    sendError(res, fault ? storageErrorBody(fault) : errorBody(error), options.token);
  };
  const onlyMethod = (res: ServerResponse, method: string, req: IncomingMessage, pathname: string) => {
    res.setHeader('allow', method);
    fail(res, new MaestroError('method_not_allowed', `${req.method} is not allowed on ${pathname}`));
  };
  const plan = { bind: options.bind ?? DEFAULT_BIND, tls: options.tls };
  const server = createBridgeServer(plan, (req, res) => {
    handle(req, res).catch((error) => {
      if (!storageFault(error)) console.error('bridge request failed:', error);
      if (!res.headersSent) fail(res, error);
      else res.destroy();
    });
  });
  // Made once the port is known (the Host check and the card name it), before the first request can arrive.
  let publicUrl = '';
  let a2a: A2aEndpoint;
  let hostAllowed: HostCheck;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // DNS rebinding: only our own names are served.
    if (!hostAllowed(req.headers.host)) return fail(res, new MaestroError('forbidden', 'unexpected Host header'));
    const url = requestUrl(req.url);
    if (!url) return fail(res, new MaestroError('invalid_input', 'malformed request target'));
    if (url.pathname === AGENT_CARD_PATH) {
      // The Agent Card is public, as A2A discovery needs; it names the token it takes, never the token.
      return req.method === 'GET' ? a2a.serveCard(req, res) : onlyMethod(res, 'GET', req, url.pathname);
    }
    if (!url.pathname.startsWith(`${API_PREFIX}/`)) {
      if (req.method === 'GET' && options.staticDir && serveStatic(options.staticDir, url.pathname, res)) return;
      return fail(res, new MaestroError('not_found', 'nothing here'));
    }
    const who = callers.authenticate(req, url);
    if (!who) {
      res.setHeader('www-authenticate', 'Bearer');
      return fail(res, new MaestroError('unauthorized', 'missing or wrong bearer token'));
    }
    if (url.pathname === A2A_PATH) {
      return req.method === 'POST' ? callers.a2a(who).serveRpc(req, res) : onlyMethod(res, 'POST', req, url.pathname);
    }
    const pathname = url.pathname.slice(API_PREFIX.length);
    try {
      if (pathname === EVENTS_PATH) {
        if (req.method !== 'GET') return onlyMethod(res, 'GET', req, pathname);
        const gate = callers.streamGate(who, url.searchParams.get('taskId') || undefined);
        return streamEvents(options.maestro.store, req, res, url, gate);
      }
      await serveOperation(callers.invoker(who), req, res, pathname, url.searchParams);
    } catch (error) {
      if (error instanceof MaestroError) return fail(res, error);
      throw error;
    }
  }

  const port = await listen(server, plan, options.port ?? 0);
  publicUrl = bridgeUrl(plan, port);
  hostAllowed = hostCheck(port, plan.tls);
  a2a = new A2aEndpoint(a2aHost(options.maestro.ctx), publicUrl);
  return {
    url: publicUrl,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        a2a.close();
        callers.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The request target as a URL; only origin-form (`/path?query`) is accepted. */
function requestUrl(target: string | undefined): URL | undefined {
  if (!target?.startsWith('/')) return undefined;
  try {
    // A fixed base: `//x/y` stays a path instead of naming a host.
    return new URL(`http://127.0.0.1${target}`);
  } catch {
    return undefined;
  }
}

function sendError(res: ServerResponse, error: ErrorBody, secret: string): void {
  sendJson(res, ERROR_STATUS[error.code], JSON.parse(JSON.stringify({ error }).replaceAll(secret, '[token]')));
}

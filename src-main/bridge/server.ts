// The local HTTP bridge: every contract operation under /api/local (bearer token, loopback Host only), SSE events,
// and the built renderer at /. Errors always have the shape { error: { code, message, issues? } }.
import { timingSafeEqual } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_PREFIX, EVENTS_PATH } from '../../src-shared/contract';
import { ERROR_STATUS, type ErrorBody, MaestroError } from '../../src-shared/errors';
import type { Maestro } from '../app/create-maestro';
import { matchRoute } from './routes';
import { streamEvents } from './sse';
import { serveStatic } from './static-files';

export const MAX_BODY_BYTES = 40 * 1024 * 1024;

export interface BridgeOptions {
  maestro: Maestro;
  token: string;
  port?: number;
  /** The built renderer; without it / answers 404. */
  staticDir?: string;
}

export interface Bridge {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startBridge(options: BridgeOptions): Promise<Bridge> {
  const expected = Buffer.from(`Bearer ${options.token}`);
  const server = http.createServer((req, res) => {
    handle(req, res).catch((error) => {
      console.error('bridge request failed:', error);
      if (!res.headersSent) sendError(res, new MaestroError('internal', 'internal error'));
      else res.destroy();
    });
  });
  let port = 0;

  const authorized = (req: IncomingMessage, url: URL): boolean => {
    const header = req.headers.authorization;
    const given = header
      ? Buffer.from(header)
      : url.pathname === API_PREFIX + EVENTS_PATH && url.searchParams.has('token')
        ? Buffer.from(`Bearer ${url.searchParams.get('token')}`)
        : undefined;
    return given !== undefined && given.length === expected.length && timingSafeEqual(given, expected);
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // DNS rebinding: only our own loopback names are served.
    const host = req.headers.host ?? '';
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
      return sendError(res, new MaestroError('forbidden', 'unexpected Host header'));
    }
    const url = new URL(req.url ?? '/', `http://${host}`);
    if (!url.pathname.startsWith(`${API_PREFIX}/`)) {
      if (req.method === 'GET' && options.staticDir && serveStatic(options.staticDir, url.pathname, res)) return;
      return sendError(res, new MaestroError('not_found', `nothing at ${url.pathname}`));
    }
    if (!authorized(req, url)) return sendError(res, new MaestroError('unauthorized', 'missing or wrong bearer token'));

    const pathname = url.pathname.slice(API_PREFIX.length);
    if (pathname === EVENTS_PATH && req.method === 'GET') return streamEvents(options.maestro.store, req, res, url);
    const match = matchRoute(req.method ?? 'GET', pathname);
    if (match.kind === 'none')
      return sendError(res, new MaestroError('not_found', `no route ${req.method} ${pathname}`));
    if (match.kind === 'wrong_method') {
      res.setHeader('allow', match.allowed.join(', '));
      return sendError(res, new MaestroError('method_not_allowed', `${req.method} is not allowed on ${pathname}`));
    }
    try {
      const body = req.method === 'GET' ? {} : await readJson(req);
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new MaestroError('invalid_input', 'the body must be a JSON object');
      }
      for (const name of match.route.params) {
        if (name in body) throw new MaestroError('invalid_input', `${name} belongs in the path, not the body`);
      }
      const output = options.maestro.invoke(match.route.name, { ...body, ...match.params });
      sendJson(res, match.route.status, output);
    } catch (error) {
      if (error instanceof MaestroError) return sendError(res, error);
      throw error;
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new MaestroError('payload_too_large', `the body is larger than ${MAX_BODY_BYTES} bytes`));
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', reject);
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') return resolve({});
      try {
        resolve(JSON.parse(text));
      } catch (error) {
        reject(new MaestroError('invalid_input', `the body is not valid JSON: ${(error as Error).message}`));
      }
    });
  });
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(body);
}

function sendError(res: ServerResponse, error: MaestroError): void {
  const body: { error: ErrorBody } = { error: error.toBody() };
  sendJson(res, ERROR_STATUS[error.code], body);
}

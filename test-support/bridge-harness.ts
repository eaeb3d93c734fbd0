// Test support for the bridge: a real server on 127.0.0.1:0 over a temp Maestro, a fetch helper, and an SSE reader.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { afterEach } from 'vitest';
import type { Maestro, MaestroOptions } from '../src-main/app/create-maestro';
import { type Bridge, startBridge } from '../src-main/bridge/server';
import type { MaestroEvent } from '../src-shared/events';
import { testMaestro } from './temp-maestro';

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

export interface TestBridge extends Bridge {
  token: string;
  maestro: Maestro;
  /** fetch under /api/local with the token (unless `headers.authorization` overrides it); JSON bodies. */
  api(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test responses are inspected freely
  json: any;
}

export async function testBridge(
  options: { staticDir?: string; maestro?: Partial<MaestroOptions> } = {},
): Promise<TestBridge> {
  const maestro = testMaestro(options.maestro);
  const token = randomBytes(32).toString('base64url');
  const bridge = await startBridge({ maestro, token, port: 0, staticDir: options.staticDir });
  open.push(() => bridge.close());
  return {
    ...bridge,
    token,
    maestro,
    async api(method, path, body, headers = {}) {
      const res = await fetch(`${bridge.url}/api/local${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      return toApiResponse(res);
    },
  };
}

export async function toApiResponse(res: Response): Promise<ApiResponse> {
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** A raw request whose headers (Host included) are sent exactly as given. */
export function rawRequest(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string; setHost?: boolean },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
        setHost: options.setHost ?? true,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

export interface SseFrame {
  id?: string;
  data: string[];
}

export interface SseReader {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Every frame received so far (comments and `retry:`-only frames excluded). */
  frames: SseFrame[];
  /** Raw text received so far. */
  raw(): string;
  events(): MaestroEvent[];
  /** Waits until `predicate` holds over the events received so far. */
  waitFor(predicate: (events: MaestroEvent[]) => boolean, timeoutMs?: number): Promise<MaestroEvent[]>;
  close(): void;
}

/** Opens GET /api/local/events{query} and parses frames as they arrive. */
export function openSse(
  bridge: Pick<TestBridge, 'port' | 'token'>,
  query = '',
  headers: Record<string, string> = {},
): Promise<SseReader> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: bridge.port,
        path: `/api/local/events${query}`,
        headers: { authorization: `Bearer ${bridge.token}`, ...headers },
      },
      (res) => {
        let text = '';
        let pending = '';
        const frames: SseFrame[] = [];
        const waiters = new Set<() => void>();
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          pending += chunk;
          let end = pending.indexOf('\n\n');
          while (end >= 0) {
            const block = pending.slice(0, end);
            pending = pending.slice(end + 2);
            const frame: SseFrame = { data: [] };
            for (const line of block.split('\n')) {
              if (line.startsWith('id: ')) frame.id = line.slice(4);
              else if (line.startsWith('data: ')) frame.data.push(line.slice(6));
            }
            if (frame.data.length > 0) frames.push(frame);
            end = pending.indexOf('\n\n');
          }
          for (const wake of waiters) wake();
        });
        const events = () => frames.map((f) => JSON.parse(f.data.join('\n')) as MaestroEvent);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          frames,
          raw: () => text,
          events,
          waitFor(predicate, timeoutMs = 5000) {
            return new Promise((done, fail) => {
              const check = () => {
                if (!predicate(events())) return;
                cleanup();
                done(events());
              };
              const timer = setTimeout(() => {
                cleanup();
                fail(new Error(`SSE condition not met in ${timeoutMs} ms; received:\n${text}`));
              }, timeoutMs);
              const cleanup = () => {
                clearTimeout(timer);
                waiters.delete(check);
              };
              waiters.add(check);
              check();
            });
          },
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
    });
    req.end();
  });
}

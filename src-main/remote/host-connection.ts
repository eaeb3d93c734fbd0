// Main's client of a remote host's bridge, met as a CoreConnection so the window's IPC, derived from the contract,
// forwards to it exactly as to the local core: each operation becomes its HTTP request from the contract
// (src-shared/http-request.ts), and the host's event stream is read and handed on. A dropped stream (the host
// restarted, the network or the SSH tunnel went away) is opened again with backoff from the last event id, so the
// events in between are replayed, not lost; meanwhile the status says which host is being reached again.
import type { IncomingMessage } from 'node:http';
import { type Backoff, backoffMs } from '../../src-shared/backoff';
import { API_PREFIX, EVENTS_PATH, type OperationName } from '../../src-shared/contract';
import { ERROR_STATUS, type ErrorBody, type ErrorCode, type Result } from '../../src-shared/errors';
import type { MaestroEvent } from '../../src-shared/events';
import { operationRequest } from '../../src-shared/http-request';
import type { CoreStatus } from '../../src-shared/preload-api';
import type { CoreConnection } from '../app/core-connection';
import { type HostEndpoint, hostRequest, openHostResponse } from './host-endpoint';
import { SseReader } from './sse-reader';

/** An open way to a host: the endpoint, and for a tunnel when it ends (the next use dials again). */
export interface HostLink {
  endpoint: HostEndpoint;
  closed?: Promise<void>;
  close(): Promise<void>;
}
export type DialHost = () => Promise<HostLink>;

export interface HostConnection extends CoreConnection {
  /** The host's name, from its /health when it was chosen. */
  readonly name: string;
  /** The last persisted event's seq the stream received: where it resumes. */
  readonly lastEventId: number | undefined;
  /** The event stream is open now (events made from here on reach the listeners). */
  readonly streaming: boolean;
  onStatus(listener: (status: CoreStatus) => void): () => void;
}

export interface HostConnectionOptions {
  name: string;
  /** This computer's data dir (the shell's "show the data folder" stays local). */
  dataDir: string;
  reconnect?: Backoff;
  /** A stream silent this long (the bridge sends a keepalive every 15 s) is taken as dropped. */
  idleMs?: number;
}

export const HOST_RECONNECT: Backoff = { baseDelayMs: 250, maxDelayMs: 10_000 };
const STREAM_OPEN_TIMEOUT_MS = 15_000;
const IDLE_MS = 45_000;
const CODES = new Set(Object.keys(ERROR_STATUS));

/** The bridge's error body as the window's Result; anything else said as the HTTP status it came with. */
function errorOf(status: number, json: unknown): ErrorBody {
  const error = (json as { error?: Partial<ErrorBody> } | null)?.error;
  if (error && typeof error.code === 'string' && CODES.has(error.code) && typeof error.message === 'string') {
    return { code: error.code as ErrorCode, message: error.message, ...(error.issues ? { issues: error.issues } : {}) };
  }
  return { code: 'internal', message: `the host answered HTTP ${status}` };
}

export function connectHost(dial: DialHost, options: HostConnectionOptions): HostConnection {
  const backoff = options.reconnect ?? HOST_RECONNECT;
  let link: Promise<HostLink> | undefined;
  let closing = false;
  let lastEventId: number | undefined;
  let attempt = 0;
  let status: CoreStatus = { state: 'running' };
  let response: IncomingMessage | undefined;
  let retry: NodeJS.Timeout | undefined;
  const eventListeners = new Set<(event: MaestroEvent) => void>();
  const statusListeners = new Set<(status: CoreStatus) => void>();

  const linked = (): Promise<HostLink> => {
    if (link) return link;
    const dialing = dial().then(
      (opened) => {
        void opened.closed?.then(() => {
          if (link === dialing) link = undefined;
        });
        return opened;
      },
      (error: unknown) => {
        if (link === dialing) link = undefined;
        throw error;
      },
    );
    link = dialing;
    return dialing;
  };
  const setStatus = (next: CoreStatus) => {
    status = next;
    for (const listener of statusListeners) listener(next);
  };
  const unreachable = (error: unknown): Result<never> => ({
    ok: false,
    error: {
      code: 'core_restarting',
      message: `the host ${options.name} cannot be reached: ${error instanceof Error ? error.message : String(error)}`,
    },
  });

  const deliver = (data: string, id: string | undefined) => {
    // Transient events (no id: stream deltas) are never replayed, so only a persisted seq moves the resume point;
    // so does the id alone that starts a stream.
    if (id && /^[1-9]\d*$/.test(id)) lastEventId = Number(id);
    if (data === '') return;
    let event: unknown;
    try {
      event = JSON.parse(data);
    } catch {
      return;
    }
    if (!event || typeof (event as { type?: unknown }).type !== 'string') return;
    for (const listener of eventListeners) listener(event as MaestroEvent);
  };

  /** One life of the event stream: open, read until it ends, then the next try after the backoff. */
  const stream = async () => {
    retry = undefined;
    if (closing) return;
    let failure = '';
    try {
      const { endpoint } = await linked();
      const res = await openHostResponse(endpoint, {
        method: 'GET',
        path: API_PREFIX + EVENTS_PATH,
        headers: {
          accept: 'text/event-stream',
          ...(lastEventId === undefined ? {} : { 'last-event-id': String(lastEventId) }),
        },
        timeoutMs: STREAM_OPEN_TIMEOUT_MS,
      });
      if (closing) {
        res.destroy();
        return;
      }
      if (res.statusCode !== 200) {
        res.resume();
        throw new Error(`its event stream answered HTTP ${res.statusCode}`);
      }
      response = res;
      attempt = 0;
      if (status.state !== 'running') setStatus({ state: 'running' });
      const reader = new SseReader((message) => {
        if (message.event === 'message') deliver(message.data, message.id);
        else if (message.event === 'error') failure = message.data;
      });
      res.socket.setTimeout(options.idleMs ?? IDLE_MS, () => res.destroy());
      res.setEncoding('utf8');
      await new Promise<void>((resolve) => {
        res.on('data', (chunk: string) => reader.push(chunk));
        res.once('close', resolve);
        res.once('error', () => {});
      });
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
    response = undefined;
    if (closing) return;
    attempt++;
    const inMs = backoffMs(attempt, backoff);
    if (failure) console.warn(`MAESTRO: the event stream of ${options.name} dropped (${failure}); again in ${inMs} ms`);
    setStatus({ state: 'restarting', attempt, inMs, exitCode: null, host: options.name });
    retry = setTimeout(() => void stream(), inMs);
  };
  void stream();

  return {
    name: options.name,
    dataDir: options.dataDir,
    get lastEventId() {
      return lastEventId;
    },
    get streaming() {
      return response !== undefined;
    },
    async call(op: OperationName, input: unknown): Promise<Result<unknown>> {
      if (closing) return unreachable(new Error('it is no longer the chosen host'));
      const built = operationRequest(op, input ?? {});
      if (!built.ok) {
        return {
          ok: false,
          error: {
            code: 'invalid_input',
            message: `${op} needs ${built.missing}`,
            issues: [{ path: [built.missing], message: 'required' }],
          },
        };
      }
      try {
        const { endpoint } = await linked();
        const answer = await hostRequest(endpoint, built.request);
        if (answer.status >= 200 && answer.status < 300) return { ok: true, value: answer.json };
        return { ok: false, error: errorOf(answer.status, answer.json) };
      } catch (error) {
        return unreachable(error);
      }
    },
    onEvent(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    // The tray and the OS notifications stay this computer's (its core keeps running its own jobs).
    onAttention(listener) {
      listener({ items: [], notice: null });
      return () => {};
    },
    // The turns being generated on the host are not replayed to a window that joins: their next deltas follow.
    liveEvents: async () => [],
    onStatus(listener) {
      statusListeners.add(listener);
      listener(status);
      return () => statusListeners.delete(listener);
    },
    async close() {
      closing = true;
      clearTimeout(retry);
      response?.destroy();
      const open = link;
      link = undefined;
      await open?.then(
        (l) => l.close(),
        () => {},
      );
    },
  };
}

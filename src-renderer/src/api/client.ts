// The renderer's typed client of the contract: one method per operation plus an event subscription, over IPC
// (window.maestro inside Electron) or HTTP + SSE (the headless bridge). Both transports are derived from the contract.
import {
  API_PREFIX,
  EVENTS_PATH,
  type MaestroApi,
  OPERATION_NAMES,
  type OperationName,
  type OpInput,
  type OpOutput,
} from '../../../src-shared/contract';
import { CodedError, type ErrorCode, type ErrorIssue, type Result } from '../../../src-shared/errors';
import { MaestroEvent } from '../../../src-shared/events';
import type { HostChoiceInput, HostView } from '../../../src-shared/hosts';
import { type HttpRequest, operationRequest } from '../../../src-shared/http-request';
import {
  type CoreStatus,
  type PickFolderInput,
  PRELOAD_GLOBAL,
  type PreloadApi,
} from '../../../src-shared/preload-api';

/** `network` is the client's own: the backend could not be reached or answered something that is not our JSON. */
export type ApiErrorCode = ErrorCode | 'network';

export class ApiError extends CodedError {
  readonly code: ApiErrorCode;
  readonly issues: ErrorIssue[];
  /** HTTP status when the error came over HTTP. */
  readonly status?: number;
  constructor(code: ApiErrorCode, message: string, issues: ErrorIssue[] = [], status?: number) {
    super(message);
    this.code = code;
    this.issues = issues;
    this.status = status;
  }

  /** The message of the first issue whose path starts with `field`, if any. */
  issueFor(field: string): string | undefined {
    return this.issues.find((i) => i.path[0] === field)?.message;
  }
}

export type EventListener = (event: MaestroEvent) => void;

export interface SubscribeOptions {
  /** Called each time the stream (re)connects; a caller reloads here what it may have missed before the first event. */
  onOpen?: () => void;
  /** Called when the stream drops; it reconnects on its own. */
  onDown?: () => void;
}

/** The window and the OS notifications / tray: which task is on screen (none is notified), which to open. */
export interface ShellLink {
  setViewingTask(taskId: string | null): void;
  /** A notification or the tray menu was clicked: open this task. Returns the disposer. */
  onOpenTask(listener: (taskId: string) => void): () => void;
  /** The core's process stopped unasked and is being started again, or runs again. Returns the disposer. */
  onCoreStatus(listener: (status: CoreStatus) => void): () => void;
}

export interface HostsLink {
  current(): Promise<HostView>;
  /** Resolves once main checked, saved and switched to the host; an ApiError naming the field otherwise. */
  choose(input: HostChoiceInput): Promise<HostView>;
}

export interface MaestroClient {
  readonly transport: 'ipc' | 'http';
  readonly api: MaestroApi;
  /**
   * The OS folder picker, only inside Electron (undefined over HTTP, where the UI offers the text field alone):
   * the picked folder, or null when the user cancelled.
   */
  readonly pickFolder?: (input?: PickFolderInput) => Promise<string | null>;
  /** The desktop shell, only inside Electron: it is told the task on screen, and asks to open one. */
  readonly shell?: ShellLink;
  /** Shows MAESTRO's data folder in the OS file manager, only inside Electron (main opens its own data dir). */
  readonly openDataFolder?: () => Promise<void>;
  /** Settings → Hosts, only inside Electron: the host the window shows, and showing another (checked by main). */
  readonly hosts?: HostsLink;
  /** Subscribes to every event; returns the disposer. */
  subscribe(listener: EventListener, options?: SubscribeOptions): () => void;
}

type AnyOperation = (input: unknown) => Promise<unknown>;

/** Builds the MaestroApi object from one generic call function, so no operation is written by hand. */
function deriveApi(call: (name: OperationName, input: unknown) => Promise<unknown>): MaestroApi {
  const entries = OPERATION_NAMES.map((name): [OperationName, AnyOperation] => [name, (input) => call(name, input)]);
  return Object.fromEntries(entries) as MaestroApi;
}

/** Parses one pushed event; anything that does not match the contract is dropped. */
function parseEvent(raw: unknown): MaestroEvent | undefined {
  const parsed = MaestroEvent.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

// ---- IPC ---------------------------------------------------------------------------------------------------------

/** Calls one preload method and unwraps its Result: the value, or an ApiError. */
async function unwrapIpc<T>(name: string, call: () => Promise<Result<T>>): Promise<T> {
  let result: Result<T>;
  try {
    result = await call();
  } catch (error) {
    throw new ApiError('network', `IPC call ${name} failed: ${(error as Error).message}`);
  }
  if (result.ok) return result.value;
  throw new ApiError(result.error.code, result.error.message, result.error.issues ?? []);
}

export function createIpcClient(preload: PreloadApi): MaestroClient {
  const api = deriveApi((name, input) => {
    const operation = preload[name] as (input: unknown) => Promise<Result<unknown>>;
    return unwrapIpc(name, () => operation(input ?? {}));
  });
  return {
    transport: 'ipc',
    api,
    pickFolder: async (input = {}) => (await unwrapIpc('pickFolder', () => preload.pickFolder(input))).path,
    shell: {
      setViewingTask: (taskId) => preload.setViewingTask(taskId),
      onOpenTask: (listener) => preload.onOpenTask(listener),
      onCoreStatus: (listener) => preload.onCoreStatus(listener),
    },
    openDataFolder: async () => {
      await unwrapIpc('openDataFolder', () => preload.openDataFolder());
    },
    hosts: {
      current: () => unwrapIpc('currentHost', () => preload.currentHost()),
      choose: (input) => unwrapIpc('chooseHost', () => preload.chooseHost(input)),
    },
    subscribe(listener, options) {
      const dispose = preload.onEvent((raw) => {
        const event = parseEvent(raw);
        if (event) listener(event);
      });
      // IPC pushes are registered synchronously, so a load started now misses nothing.
      queueMicrotask(() => options?.onOpen?.());
      // A core that restarted may have changed things while it was down: the stream "reconnects", and the caller
      // reloads as after any reconnect.
      let down = false;
      const stopStatus = preload.onCoreStatus((status) => {
        if (status.state === 'restarting' && !down) options?.onDown?.();
        else if (status.state === 'running' && down) options?.onOpen?.();
        down = status.state === 'restarting';
      });
      return () => {
        dispose();
        stopStatus();
      };
    },
  };
}

// ---- HTTP --------------------------------------------------------------------------------------------------------

export type { HttpRequest };

/** The request for an operation, straight from the contract (src-shared/http-request.ts). */
export function buildHttpRequest<N extends OperationName>(name: N, input: OpInput<N>): HttpRequest {
  const built = operationRequest(name, input);
  if (built.ok) return built.request;
  throw new ApiError('invalid_input', `${name} needs ${built.missing}`, [
    { path: [built.missing], message: 'required' },
  ]);
}

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface EventSourceLike {
  readyState: number;
  onopen: ((ev: Event) => void) | null;
  onmessage: ((ev: MessageEvent<string>) => void) | null;
  onerror: ((ev: Event) => void) | null;
  close(): void;
}

export interface HttpClientOptions {
  /** Origin of the bridge, e.g. http://127.0.0.1:4312. */
  baseUrl: string;
  token: string;
  fetch?: FetchLike;
  eventSource?: new (url: string) => EventSourceLike;
  /** Delay before a closed event stream is opened again. */
  reconnectMs?: number;
}

const EVENT_SOURCE_CLOSED = 2;

async function readError(response: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return new ApiError('network', `HTTP ${response.status} without a JSON body`, [], response.status);
  }
  const error = (body as { error?: { code?: unknown; message?: unknown; issues?: unknown } } | null)?.error;
  if (!error || typeof error.code !== 'string' || typeof error.message !== 'string') {
    return new ApiError('network', `HTTP ${response.status} with an unexpected body`, [], response.status);
  }
  const issues = Array.isArray(error.issues) ? (error.issues as ErrorIssue[]) : [];
  return new ApiError(error.code as ErrorCode, error.message, issues, response.status);
}

export function createHttpClient(options: HttpClientOptions): MaestroClient {
  const doFetch: FetchLike = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  const authorization = `Bearer ${options.token}`;

  const api = deriveApi(async (name, input) => {
    const request = buildHttpRequest(name, (input ?? {}) as OpInput<typeof name>);
    const headers: Record<string, string> = { authorization, accept: 'application/json' };
    if (request.body) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await doFetch(options.baseUrl + request.path, {
        method: request.method,
        headers,
        body: request.body ? JSON.stringify(request.body) : undefined,
      });
    } catch (error) {
      throw new ApiError('network', `cannot reach MAESTRO: ${(error as Error).message}`);
    }
    if (!response.ok) throw await readError(response);
    return response.json();
  });

  return {
    transport: 'http',
    api,
    subscribe(listener, subscribeOptions) {
      const EventSourceImpl = options.eventSource ?? (globalThis.EventSource as new (url: string) => EventSourceLike);
      let lastEventId: string | undefined;
      let source: EventSourceLike | undefined;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let disposed = false;

      const open = () => {
        const url = new URL(API_PREFIX + EVENTS_PATH, options.baseUrl);
        url.searchParams.set('token', options.token);
        // The browser resends Last-Event-ID itself while one EventSource lives; a new one carries it in the query.
        if (lastEventId !== undefined) url.searchParams.set('lastEventId', lastEventId);
        const current = new EventSourceImpl(url.toString());
        source = current;
        current.onopen = () => subscribeOptions?.onOpen?.();
        current.onmessage = (message) => {
          // Transient events (seq 0) are never replayed, so only a persisted seq moves the resume point.
          if (/^[1-9]\d*$/.test(message.lastEventId)) lastEventId = message.lastEventId;
          let raw: unknown;
          try {
            raw = JSON.parse(message.data);
          } catch {
            return;
          }
          const event = parseEvent(raw);
          if (event) listener(event);
        };
        current.onerror = () => {
          subscribeOptions?.onDown?.();
          if (disposed || current.readyState !== EVENT_SOURCE_CLOSED) return;
          current.close();
          timer = setTimeout(open, options.reconnectMs ?? 2000);
        };
      };
      open();
      return () => {
        disposed = true;
        if (timer) clearTimeout(timer);
        source?.close();
      };
    },
  };
}

// ---- choosing a transport ----------------------------------------------------------------------------------------

const TOKEN_KEY = 'maestro.token';

/**
 * The bridge token: from the URL fragment `#token=…` (which never reaches the server), kept in sessionStorage so a
 * reload still works, and removed from the address bar.
 */
export function takeToken(location: Location, storage: Storage, history: History): string | undefined {
  const fromHash = new URLSearchParams(location.hash.replace(/^#/, '')).get('token');
  if (fromHash) {
    storage.setItem(TOKEN_KEY, fromHash);
    history.replaceState(null, '', location.pathname + location.search);
    return fromHash;
  }
  return storage.getItem(TOKEN_KEY) ?? undefined;
}

export type ClientChoice = { ok: true; client: MaestroClient } | { ok: false; reason: string };

/** IPC inside Electron; HTTP with the page's token in a browser. */
export function connect(): ClientChoice {
  const preload = (window as unknown as Record<string, PreloadApi | undefined>)[PRELOAD_GLOBAL];
  if (preload) return { ok: true, client: createIpcClient(preload) };
  const token = takeToken(window.location, window.sessionStorage, window.history);
  if (!token) {
    return {
      ok: false,
      reason: 'No access token. Open the address that MAESTRO printed, including its #token=… part.',
    };
  }
  return { ok: true, client: createHttpClient({ baseUrl: window.location.origin, token }) };
}

/** Narrows an unknown failure to an ApiError so the UI always has a code and a message. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError('network', error instanceof Error ? error.message : String(error));
}

export type { MaestroApi, OperationName, OpInput, OpOutput };

// The renderer client's event stream: contract events over SSE (with ?token=, resuming after the last seq) and over
// IPC, and the bridge token taken from the page's address.
import { describe, expect, it } from 'vitest';
import type { MaestroEvent } from '../../../src-shared/events';
import type { CoreStatus } from '../../../src-shared/preload-api';
import { createHttpClient, createIpcClient, type EventSourceLike, takeToken } from './client';
import { BASE, fakeFetch, fakePreload } from './client-test-kit';

const EVENT: MaestroEvent = {
  seq: 5,
  ts: '2025-01-01T00:00:00.000Z',
  taskId: 't1',
  jobId: null,
  type: 'comment.created',
  comment: {
    id: 'c1',
    taskId: 't1',
    jobId: null,
    author: 'user',
    kind: 'comment',
    body: 'hi',
    createdAt: '2025-01-01T00:00:00.000Z',
  },
};

class FakeEventSource implements EventSourceLike {
  static opened: FakeEventSource[] = [];
  readyState = 0;
  onopen: ((ev: Event) => void) | null = null;
  onmessage: ((ev: MessageEvent<string>) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  push(id: string, data: string) {
    this.onmessage?.(new MessageEvent('message', { data, lastEventId: id }));
  }
  fail() {
    this.readyState = 2;
    this.onerror?.(new Event('error'));
  }
}

describe('event stream', () => {
  it('delivers contract events over SSE with ?token=, drops malformed ones, resumes after the last seq', async () => {
    FakeEventSource.opened = [];
    const client = createHttpClient({
      baseUrl: BASE,
      token: 'tok en',
      fetch: fakeFetch().fetch,
      eventSource: FakeEventSource,
      reconnectMs: 1,
    });
    const received: MaestroEvent[] = [];
    let opens = 0;
    const dispose = client.subscribe((e) => received.push(e), { onOpen: () => opens++ });

    const first = FakeEventSource.opened[0] as FakeEventSource;
    expect(new URL(first.url).pathname).toBe('/api/local/events');
    expect(new URL(first.url).searchParams.get('token')).toBe('tok en');
    expect(new URL(first.url).searchParams.has('lastEventId')).toBe(false);
    first.open();
    first.push('5', JSON.stringify(EVENT));
    first.push('6', '{not json');
    first.push('7', JSON.stringify({ type: 'nonsense' }));
    const delta = {
      seq: 0,
      ts: EVENT.ts,
      taskId: 't1',
      jobId: 'j1',
      type: 'stream.delta',
      text: 'Hi',
      reasoning: '',
      toolCalls: [],
    };
    first.push('0', JSON.stringify(delta));
    expect(received).toEqual([EVENT, delta]);

    first.fail();
    await new Promise((r) => setTimeout(r, 10));
    const second = FakeEventSource.opened[1] as FakeEventSource;
    expect(second).toBeDefined();
    expect(new URL(second.url).searchParams.get('lastEventId')).toBe('7');
    second.open();
    expect(opens).toBe(2);

    dispose();
    expect(second.closed).toBe(true);
  });

  it('delivers IPC events and calls onOpen once subscribed', async () => {
    const { preload, listeners } = fakePreload(() => ({ ok: true, value: null }));
    const client = createIpcClient(preload);
    const received: MaestroEvent[] = [];
    let opened = false;
    const dispose = client.subscribe((e) => received.push(e), { onOpen: () => (opened = true) });
    await Promise.resolve();
    expect(opened).toBe(true);
    for (const l of listeners) l(EVENT);
    expect(received).toEqual([EVENT]);
    dispose();
    expect(listeners).toHaveLength(0);
  });

  it('a core that restarts reads as a dropped stream, and its return as a reconnect (the caller reloads)', async () => {
    const { preload, statusListeners } = fakePreload(() => ({ ok: true, value: null }));
    const client = createIpcClient(preload);
    const seen: string[] = [];
    const dispose = client.subscribe(() => {}, { onOpen: () => seen.push('open'), onDown: () => seen.push('down') });
    await Promise.resolve();
    const tell = (status: CoreStatus) => {
      for (const l of statusListeners) l(status);
    };
    tell({ state: 'running' });
    tell({ state: 'restarting', attempt: 1, inMs: 500, exitCode: 137 });
    tell({ state: 'restarting', attempt: 2, inMs: 1000, exitCode: 137 });
    tell({ state: 'running' });
    expect(seen).toEqual(['open', 'down', 'open']);
    dispose();
    expect(statusListeners).toHaveLength(0);
  });
});

describe('takeToken', () => {
  function fakeWindow(hash: string) {
    const stored = new Map<string, string>();
    const replaced: string[] = [];
    const location = { hash, pathname: '/', search: '' } as Location;
    const storage = {
      getItem: (k: string) => stored.get(k) ?? null,
      setItem: (k: string, v: string) => void stored.set(k, v),
    } as Storage;
    const history = { replaceState: (_s: unknown, _t: string, url: string) => void replaced.push(url) } as History;
    return { location, storage, history, replaced };
  }

  it('takes the token from the fragment, keeps it in sessionStorage and clears the address bar', () => {
    const w = fakeWindow('#token=abc-123');
    expect(takeToken(w.location, w.storage, w.history)).toBe('abc-123');
    expect(w.replaced).toEqual(['/']);
    const reloaded = { ...w, location: { hash: '', pathname: '/', search: '' } as Location };
    expect(takeToken(reloaded.location, w.storage, w.history)).toBe('abc-123');
  });

  it('has none without a fragment or a stored one', () => {
    const w = fakeWindow('');
    expect(takeToken(w.location, w.storage, w.history)).toBeUndefined();
  });
});

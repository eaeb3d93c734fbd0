// Stream-to-screen latency for bench/ui: from the moment the scripted model's server writes an SSE chunk to the moment
// that chunk's text is in the page's feed. Each chunk carries a unique marker; the server reports when it wrote each
// one (onChunk), and in the page a MutationObserver on the feed records when each marker appears. Both clocks are
// wall-clock ms (performance.timeOrigin + performance.now()); Chromium and Node on one machine share the clock.
//
// On the way, a wrapped EventSource records when the page received each marker from the host, which splits the time
// into the host's part (the SDK, the engine's stream coalescing, the bridge's SSE) and the page's (the store, the
// deferred render). The baseline is the same measure over the plainest path, in the same run: a Node SSE server
// writing the same markers to a bare page that appends each event's text to a div.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from '@playwright/test';
import type { SentChunk } from '../test-support/scripted-llm-server';

export const LATENCY_CHUNKS = 200;
export const LATENCY_CHUNK_MS = 20;
export const LATENCY_TARGET_MS = 50;

const MARKER_PATTERN = 'MRK\\d{4}';
const marker = (i: number) => `MRK${String(i).padStart(4, '0')}`;

/** Chunk `i`'s text: every chunk is as long as every other, so the scripted server's even split keeps them whole. */
export const latencyChunk = (i: number) => `Line ${String(i).padStart(4, '0')} carries ${marker(i)} to the screen.\n\n`;

/** The markers in `text`. */
export const markersIn = (text: string) => [...text.matchAll(new RegExp(MARKER_PATTERN, 'g'))].map((m) => m[0]);

// ---- in-page probes (JavaScript text, as in ui.ts) ---------------------------------------------------------------

/**
 * Wraps EventSource before the app runs: while `window.benchReceived` is an object, each marker's first arrival in a
 * message is recorded there. The listener is added in the constructor, so it runs in the same task as the app's
 * onmessage, just before it.
 */
export const RECEIVE_PROBE = `(() => {
  const Native = window.EventSource;
  const pattern = new RegExp(${JSON.stringify(MARKER_PATTERN)}, 'g');
  window.benchReceived = null;
  window.EventSource = class extends Native {
    constructor(url, init) {
      super(url, init);
      this.addEventListener('message', (message) => {
        const seen = window.benchReceived;
        if (!seen) return;
        const at = performance.timeOrigin + performance.now();
        for (const m of message.data.matchAll(pattern)) if (!(m[0] in seen)) seen[m[0]] = at;
      });
    }
  };
})()`;

/** Starts recording when each marker first appears under `selector` (and arms the receive probe). */
const SHOWN_START = `(({ selector }) => {
  const root = document.querySelector(selector);
  if (!root) throw new Error('no ' + selector + ' in the page');
  const pattern = new RegExp(${JSON.stringify(MARKER_PATTERN)}, 'g');
  const shown = {};
  const received = {};
  window.benchReceived = received;
  const scan = (text, at) => {
    for (const m of text.matchAll(pattern)) if (!(m[0] in shown)) shown[m[0]] = at;
  };
  const observer = new MutationObserver((records) => {
    const at = performance.timeOrigin + performance.now();
    for (const r of records) {
      if (r.type === 'characterData') scan(r.target.data, at);
      else for (const n of r.addedNodes) scan(n.textContent || '', at);
    }
  });
  observer.observe(root, { subtree: true, childList: true, characterData: true });
  window.benchShownStop = () => {
    observer.disconnect();
    window.benchReceived = null;
    return { shown, received };
  };
})`;

const SHOWN_STOP = 'window.benchShownStop()';

interface PageTimes {
  shown: Record<string, number>;
  received: Record<string, number>;
}

export async function startShownProbe(page: Page, selector: string): Promise<() => Promise<PageTimes>> {
  await page.evaluate(`${SHOWN_START}(${JSON.stringify({ selector })})`);
  return () => page.evaluate<PageTimes>(SHOWN_STOP);
}

// ---- figures ---------------------------------------------------------------------------------------------------

export interface Latency {
  /** Markers sent, and how many of them were seen on the page. */
  sent: number;
  seen: number;
  /** Sent → shown, ms. */
  shownMs: number[];
  /** Sent → received by the page, ms (empty where the page's receipt was not recorded). */
  receivedMs: number[];
  /** Received → shown, ms. */
  renderMs: number[];
  /**
   * The host's events that brought the markers (markers received at the same instant came in one), and for each the
   * wait of its oldest marker (sent → received): what the engine's gathering of deltas adds on top of the transport.
   */
  events: number;
  oldestInEventMs: number[];
}

/** The latencies of the markers in `sent` (the chunks as written, with their time) against what the page recorded. */
export function latencies(sent: readonly SentChunk[], page: PageTimes): Latency {
  const sentAt = new Map<string, number>();
  for (const chunk of sent) {
    const content = typeof chunk.delta.content === 'string' ? chunk.delta.content : '';
    for (const m of markersIn(content)) if (!sentAt.has(m)) sentAt.set(m, chunk.sentAt);
  }
  const result: Latency = {
    sent: sentAt.size,
    seen: 0,
    shownMs: [],
    receivedMs: [],
    renderMs: [],
    events: 0,
    oldestInEventMs: [],
  };
  const oldest = new Map<number, number>();
  for (const [m, at] of sentAt) {
    const shown = page.shown[m];
    const received = page.received[m];
    if (shown !== undefined) {
      result.seen++;
      result.shownMs.push(shown - at);
    }
    if (received !== undefined) {
      result.receivedMs.push(received - at);
      oldest.set(received, Math.max(oldest.get(received) ?? 0, received - at));
    }
    if (received !== undefined && shown !== undefined) result.renderMs.push(shown - received);
  }
  result.events = oldest.size;
  result.oldestInEventMs = [...oldest.values()];
  return result;
}

/** The nearest-rank percentile `p` (0–100) of `values`; NaN when there are none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

// ---- the baseline: a plain SSE round trip ------------------------------------------------------------------------

const BASELINE_PAGE = '<!doctype html><meta charset="utf-8"><title>SSE baseline</title><div id="feed"></div>';

/** Opens the page's EventSource on /events; each message's text becomes a paragraph of #feed. Resolves once open. */
const BASELINE_OPEN = `new Promise((resolve, reject) => {
  const source = new EventSource('/events');
  const feed = document.getElementById('feed');
  source.onmessage = (message) => {
    const p = document.createElement('p');
    p.textContent = message.data;
    feed.appendChild(p);
  };
  source.onopen = () => resolve();
  source.onerror = () => reject(new Error('the baseline EventSource failed'));
})`;

/**
 * The baseline in `page`: a Node SSE server sends the same chunks, as far apart, to a bare page that appends each one
 * to a div; the same MutationObserver times them. Leaves the page on the baseline's address.
 */
export async function measureBaseline(page: Page): Promise<Latency> {
  let events: http.ServerResponse | undefined;
  let opened = () => {};
  const connected = new Promise<void>((resolve) => {
    opened = resolve;
  });
  const server = http.createServer((req, res) => {
    if (req.url === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.flushHeaders();
      events = res;
      opened();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(BASELINE_PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.evaluate(BASELINE_OPEN);
    await connected;
    const stop = await startShownProbe(page, '#feed');
    const sent: SentChunk[] = [];
    for (let i = 0; i < LATENCY_CHUNKS; i++) {
      const content = latencyChunk(i);
      events?.write(`data: ${content.trim()}\n\n`);
      sent.push({ request: 0, delta: { content }, sentAt: performance.timeOrigin + performance.now() });
      await sleep(LATENCY_CHUNK_MS);
    }
    await sleep(200);
    return latencies(sent, await stop());
  } finally {
    events?.end();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

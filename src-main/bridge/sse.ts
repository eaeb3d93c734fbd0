// GET /api/local/events: Server-Sent Events, `id:` = event seq; Last-Event-ID replays what was missed, then live.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MaestroEvent } from '../../src-shared/events';
import { storageFault } from '../db/storage-fault';
import type { Store } from '../db/store';
import { dataFrameOf, fanoutOf, frameOf } from './event-fanout';

const KEEPALIVE_MS = 15_000;
/** How soon a read of the log that failed (a failing disk) is tried again. */
const REREAD_MS = 1_000;
const PAGE = 500;

/** Last-Event-ID (header, or `?lastEventId=` for clients that cannot set it); undefined when absent or not a seq. */
function lastEventId(req: IncomingMessage, url: URL): number | undefined {
  const raw = String(req.headers['last-event-id'] ?? url.searchParams.get('lastEventId') ?? '').trim();
  return /^\d+$/.test(raw) ? Number(raw) : undefined;
}

/** A caller's stream (callers.ts): only the events of the tasks it sees, and an end when it is revoked. */
export interface StreamGate {
  seesTask(taskId: string): boolean;
  /** Calls `end` once the caller is revoked; answers the disposer. */
  whenRevoked(end: () => void): () => void;
}

/** The last frame of a revoked caller's stream: an `error` event with the 401 body, before the stream ends. */
export const REVOKED_FRAME = `event: error\ndata: ${JSON.stringify({
  error: { code: 'unauthorized', message: 'this caller was revoked' },
})}\n\n`;

export function streamEvents(
  store: Store,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  gate?: StreamGate,
): void {
  const taskId = url.searchParams.get('taskId') || undefined;
  const sees = (event: MaestroEvent) => !gate || gate.seesTask(event.taskId);
  const fanout = fanoutOf(store);
  const head = store.events.lastSeq();
  // Without Last-Event-ID a subscriber starts at the present; an id beyond the log (another data dir) as well.
  let lastSent = Math.min(lastEventId(req, url) ?? head, head);

  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store, no-transform',
    connection: 'keep-alive',
    'x-content-type-options': 'nosniff',
  });
  res.write('retry: 1000\n\n');
  // Where this stream starts, as an id of its own (no data, so no event): a client that drops before the first event
  // resumes from here, not from the present of its reconnect, and misses nothing in between.
  if (lastSent > 0) res.write(`id: ${lastSent}\n\n`);

  // The event log is the source: a notification only says "something after lastSent may exist", and what is sent
  // is read back from the log in seq order. So an event dispatched out of order (a listener that publishes while
  // another event is being dispatched) or during the replay is neither skipped nor sent twice.
  let closed = false;
  // Backpressure: a page read from the log is written whole; while the socket's buffer is then full, no further
  // page is read, and 'drain' resumes where it stopped. At most one page waits in memory per slow client.
  let draining = false;
  let reread: NodeJS.Timeout | undefined;
  const pullPages = () => {
    while (!closed && !draining) {
      const { events: page, through } = fanout.since(lastSent, taskId, PAGE);
      // The page in one write: one syscall for a burst of events, not one per event.
      let text = '';
      for (const event of page) if (sees(event)) text += frameOf(event);
      lastSent = through;
      const full = text !== '' && !res.write(text);
      if (full) {
        draining = true;
        res.once('drain', () => {
          draining = false;
          pull();
        });
      }
      if (page.length < PAGE) return;
    }
  };
  // Runs from 'drain' and timers too, where a throw would end the process: a read the storage refuses is tried again
  // shortly (the stream resumes from lastSent, so nothing is skipped); anything else ends this stream only.
  const pull = () => {
    try {
      pullPages();
    } catch (error) {
      if (storageFault(error) && !closed) {
        reread ??= setTimeout(() => {
          reread = undefined;
          pull();
        }, REREAD_MS);
        return;
      }
      console.error('event stream failed:', error);
      res.destroy();
    }
  };
  const unsubscribe = fanout.attach((event) => {
    if (closed || (taskId && event.taskId !== taskId)) return;
    // A transient event (seq 0: stream deltas) is not in the log: sent live, without an id, so that Last-Event-ID
    // keeps naming the last persisted event. No pull here (it may be dispatched inside an open transaction), and
    // dropped while persisted events wait to be sent, so it never overtakes them; the log has the final state.
    if (event.seq <= 0) {
      if (!draining && sees(event)) res.write(dataFrameOf(event));
    } else if (event.seq > lastSent) pull();
  });
  pull();
  // Then the turns being generated now, whole so far (their deltas are not in the log), without ids: a window that
  // joins mid-stream shows them as one that watched from the start; what follows comes live.
  for (const event of store.liveEvents(taskId)) if (sees(event)) res.write(dataFrameOf(event));

  const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
  keepalive.unref();
  // A revoked caller's stream ends at once: its last frame says why, and the EventSource's reconnect is answered 401
  // (which ends an EventSource for good).
  const stopGate = gate?.whenRevoked(() => {
    if (!closed) res.end(REVOKED_FRAME);
    close();
  });
  const close = () => {
    closed = true;
    clearInterval(keepalive);
    clearTimeout(reread);
    unsubscribe();
    stopGate?.();
  };
  req.on('close', close);
  res.on('close', close);
  res.on('error', close);
}

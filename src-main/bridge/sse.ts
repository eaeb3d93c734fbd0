// GET /api/local/events: Server-Sent Events, `id:` = event seq; Last-Event-ID replays what was missed, then live.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MaestroEvent } from '../../src-shared/events';
import type { Store } from '../db/store';

const KEEPALIVE_MS = 15_000;

export function streamEvents(store: Store, req: IncomingMessage, res: ServerResponse, url: URL): void {
  const taskId = url.searchParams.get('taskId') ?? undefined;
  const lastHeader = req.headers['last-event-id'] ?? url.searchParams.get('lastEventId') ?? '';
  const parsedLast = Number.parseInt(String(lastHeader), 10);
  // A new subscriber without Last-Event-ID starts at the present.
  let lastSent = Number.isFinite(parsedLast) && parsedLast >= 0 ? parsedLast : store.events.lastSeq();

  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-content-type-options': 'nosniff',
  });
  res.write('retry: 1000\n\n');

  const send = (event: MaestroEvent) => {
    if (event.seq <= lastSent || (taskId && event.taskId !== taskId)) return;
    lastSent = event.seq;
    res.write(`id: ${event.seq}\ndata: ${JSON.stringify(event)}\n\n`);
  };

  // Subscribe before replaying so nothing committed in between is missed; `send` drops what was already sent.
  const buffered: MaestroEvent[] = [];
  let replaying = true;
  const unsubscribe = store.subscribe((event) => (replaying ? buffered.push(event) : send(event)));
  for (;;) {
    const page = store.events.since(lastSent, taskId, 500);
    for (const event of page) send(event);
    if (page.length < 500) break;
  }
  replaying = false;
  for (const event of buffered) send(event);

  const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
  keepalive.unref();
  const close = () => {
    clearInterval(keepalive);
    unsubscribe();
  };
  req.on('close', close);
  res.on('error', close);
}

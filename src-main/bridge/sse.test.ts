// GET /api/local/events over a real server: frames, Last-Event-ID replay, the taskId filter, and REST agreeing with SSE.
import net from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import type { Comment, Job, ToolRequest } from '../../src-shared/entities';
import { MaestroEvent } from '../../src-shared/events';
import { openSse, type SseReader, type TestBridge, testBridge } from '../../test-support/bridge-harness';
import { changeJob } from '../jobs/job-writes';

const seqs = (events: MaestroEvent[]) => events.map((e) => e.seq);
const lastSeq = (b: TestBridge) => b.maestro.store.events.lastSeq();
const waitForSeq = (reader: SseReader, seq: number) => reader.waitFor((events) => events.some((e) => e.seq >= seq));
const listenerCount = (b: TestBridge) => (Reflect.get(b.maestro.store, 'listeners') as Set<unknown>).size;

describe('SSE /events', () => {
  it('P10.14 one data: JSON line per event, id: = the event seq', async () => {
    const b = await testBridge();
    const sse = await openSse(b);
    expect(sse.status).toBe(200);
    expect(sse.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(sse.headers['cache-control']).toMatch(/no-store/);
    expect(sse.headers['access-control-allow-origin']).toBeUndefined();

    const created = await b.api('POST', '/tasks', { instruction: 'line one\nline two' });
    await b.api('POST', `/tasks/${created.json.task.id}/comments`, { body: 'multi\nline\n\ncomment' });
    const events = await waitForSeq(sse, lastSeq(b));

    expect(events.map((e) => e.type)).toEqual(['job.changed', 'comment.created', 'task.created', 'comment.created']);
    for (const frame of sse.frames) {
      expect(frame.data).toHaveLength(1);
      const event = MaestroEvent.parse(JSON.parse(frame.data[0] as string));
      expect(frame.id).toBe(String(event.seq));
      expect(event.taskId).toBe(created.json.task.id);
    }
    // Every frame is exactly `id: N\ndata: {...}\n\n`: newlines inside bodies are escaped in the JSON.
    const frames = sse
      .raw()
      .split('\n\n')
      .filter((f) => f.startsWith('id: ') && f.includes('\ndata: '));
    for (const frame of frames) expect(frame).toMatch(/^id: \d+\ndata: \{[^\n]*\}$/);
    expect(seqs(events)).toEqual([...seqs(events)].sort((x, y) => x - y));
    expect(events.at(-1)).toMatchObject({ type: 'comment.created', comment: { body: 'multi\nline\n\ncomment' } });
    sse.close();
  });

  it('P10.14 a subscriber without Last-Event-ID starts at the present; a malformed one too', async () => {
    const b = await testBridge();
    b.maestro.invoke('createTask', { instruction: 'before' });
    const head = lastSeq(b);
    const variants: Record<string, string>[] = [{}, { 'last-event-id': 'abc' }, { 'last-event-id': '-1' }];
    for (const headers of variants) {
      const sse = await openSse(b, '', headers);
      const after = b.maestro.invoke('createTask', { instruction: 'after' });
      const events = await waitForSeq(sse, lastSeq(b));
      expect(events.every((e) => e.seq > head && e.taskId === after.task.id)).toBe(true);
      sse.close();
    }
  });

  it('a stream starts with its starting point as an id alone: a client dropped before any event resumes from there', async () => {
    const b = await testBridge();
    b.maestro.invoke('createTask', { instruction: 'before' });
    const head = lastSeq(b);
    const first = await openSse(b);
    await vi.waitFor(() => expect(first.raw()).toContain(`id: ${head}\n\n`));
    expect(first.raw().startsWith(`retry: 1000\n\nid: ${head}\n\n`)).toBe(true);
    expect(first.frames).toEqual([]); // no data: no event
    first.close();
    // Created while that client was away; it comes back with the id it was given.
    const missed = b.maestro.invoke('createTask', { instruction: 'while away' });
    const again = await openSse(b, '', { 'last-event-id': String(head) });
    const events = await waitForSeq(again, lastSeq(b));
    expect(events.some((e) => e.type === 'task.created' && e.taskId === missed.task.id)).toBe(true);
    again.close();
  });

  it('P10.15 reconnecting with Last-Event-ID gets every later event exactly once, then live ones', async () => {
    const b = await testBridge();
    const start = lastSeq(b);
    const first = await openSse(b);
    const t1 = (await b.api('POST', '/tasks', { instruction: 'one' })).json.task.id;
    await b.api('POST', `/tasks/${t1}/comments`, { body: 'c1' });
    const seen = await waitForSeq(first, lastSeq(b));
    const lastId = Number(first.frames.at(-1)?.id);
    expect(lastId).toBe(lastSeq(b));
    first.close();

    // While disconnected: more than one replay page of events (500), across tasks.
    b.maestro.invoke('cancelTask', { taskId: t1 });
    for (let i = 0; i < 5; i++) b.maestro.invoke('createTask', { instruction: `offline ${i}` });
    const job = b.maestro.store.jobs.latestForTask(t1) as Job;
    b.maestro.store.transact(() => {
      for (let i = 0; i < 600; i++) b.maestro.store.publish({ type: 'job.changed', taskId: t1, jobId: job.id, job });
    });
    b.maestro.invoke('continueTask', { taskId: t1 });
    const missed = b.maestro.store.events.since(lastId, undefined, 10_000);
    expect(missed.length).toBeGreaterThan(600);

    const second = await openSse(b, '', { 'last-event-id': String(lastId) });
    await waitForSeq(second, lastSeq(b));
    expect(seqs(second.events())).toEqual(seqs(missed));
    expect(second.events()).toEqual(missed);

    // Live after the replay, still once each.
    await b.api('POST', `/tasks/${t1}/comments`, { body: 'live' });
    b.maestro.invoke('createTask', { instruction: 'live task' });
    const all = await waitForSeq(second, lastSeq(b));
    const received = [...seqs(seen), ...seqs(all)];
    expect(received).toEqual(seqs(b.maestro.store.events.since(start, undefined, 10_000)));
    expect(new Set(received).size).toBe(received.length);
    second.close();

    // `?lastEventId=` works for clients that cannot set the header; an id beyond the log means "from now".
    const viaQuery = await openSse(b, `?lastEventId=${lastSeq(b) - 2}`);
    expect(seqs(await viaQuery.waitFor((e) => e.length === 2))).toEqual([lastSeq(b) - 1, lastSeq(b)]);
    viaQuery.close();
    const beyond = await openSse(b, '', { 'last-event-id': String(lastSeq(b) + 1000) });
    const next = b.maestro.invoke('createTask', { instruction: 'after a reset' });
    const fresh = await waitForSeq(beyond, lastSeq(b));
    expect(fresh.every((e) => e.taskId === next.task.id)).toBe(true);
    expect(fresh).toHaveLength(3);
    beyond.close();
  });

  it('P10.15 an event published by a listener while another is dispatched is neither lost nor repeated', async () => {
    const b = await testBridge();
    let reacted = false;
    // Registered before the stream: on the first job.changed of a task it comments at once (a nested dispatch, which
    // reaches later listeners before the event that caused it).
    const unsubscribe = b.maestro.store.subscribe((event) => {
      if (reacted || event.type !== 'job.changed') return;
      reacted = true;
      b.maestro.invoke('addComment', { taskId: event.taskId, body: 'auto' });
    });
    const sse = await openSse(b);
    const start = lastSeq(b);
    b.maestro.invoke('createTask', { instruction: 'nested' });
    const events = await waitForSeq(sse, lastSeq(b));
    expect(seqs(events)).toEqual(seqs(b.maestro.store.events.since(start)));
    expect(events.map((e) => e.type)).toEqual(['job.changed', 'comment.created', 'task.created', 'comment.created']);
    unsubscribe();
    sse.close();
  });

  it('P10.16 ?taskId= streams only that task’s events, live and on replay', async () => {
    const b = await testBridge();
    const t1 = b.maestro.invoke('createTask', { instruction: 'mine' }).task.id;
    const t2 = b.maestro.invoke('createTask', { instruction: 'theirs' }).task.id;
    const replay = await openSse(b, `?taskId=${t1}`, { 'last-event-id': '0' });
    const live = await openSse(b, `?taskId=${t1}`);
    await b.api('POST', `/tasks/${t2}/comments`, { body: 'for t2' });
    await b.api('POST', `/tasks/${t2}/cancel`);
    await b.api('POST', `/tasks/${t1}/comments`, { body: 'for t1' });
    // The streams are ordered, so once t1's last event arrived every t2 event before it would have too.
    const expected = b.maestro.store.events.since(0, t1);
    const replayed = await waitForSeq(replay, expected.at(-1)?.seq ?? 0);
    expect(replayed).toEqual(expected);
    const lived = await waitForSeq(live, expected.at(-1)?.seq ?? 0);
    expect(lived.map((e) => e.type)).toEqual(['comment.created']);
    expect([...replayed, ...lived].every((e) => e.taskId === t1)).toBe(true);

    // Reconnect inside the filter: only t1's events after the id.
    const resumeFrom = expected[1]?.seq ?? 0;
    const resumed = await openSse(b, `?taskId=${t1}`, { 'last-event-id': String(resumeFrom) });
    const again = await waitForSeq(resumed, expected.at(-1)?.seq ?? 0);
    expect(again).toEqual(expected.filter((e) => e.seq > resumeFrom));
    for (const r of [replay, live, resumed]) r.close();
  });

  it('P10.17 GET /tasks/:id shows the same state SSE reported', async () => {
    const b = await testBridge();
    const sse = await openSse(b);
    const { store } = b.maestro;
    const id = (await b.api('POST', '/tasks', { instruction: 'track me' })).json.task.id as string;
    await b.api('POST', `/tasks/${id}/comments`, { body: 'queued comment' });
    await b.api('POST', `/tasks/${id}/cancel`);
    const job = (await b.api('POST', `/tasks/${id}/continue`, { instruction: 'again' })).json.job as Job;
    // The Worker's moves, published as the Worker publishes them.
    const running = changeJob(store, { id: job.id, status: 'queued' }, 'running', { workerId: 'w1' });
    const request = store.transact(() => {
      const r = store.toolRequests.insert(id, job.id, {
        callId: 'c',
        tool: 'run_command',
        args: {},
        summary: 'run ls',
      });
      const { args: _args, ...pub } = r;
      store.publish({ type: 'tool_request.changed', taskId: id, jobId: job.id, request: pub });
      changeJob(store, running ?? job, 'waiting_human', { waitReason: 'tool_request' });
      return r;
    });
    await b.api('POST', `/tasks/${id}/tool-requests/${request.id}/decide`, { decision: 'approve', scope: 'task' });
    const events = await waitForSeq(sse, lastSeq(b));

    // Fold the stream into state, as a UI would.
    const jobs = new Map<string, Job>();
    const comments: Comment[] = [];
    const requests = new Map<string, ToolRequest>();
    let taskFromSse: unknown;
    for (const e of events) {
      if (e.type === 'job.changed') jobs.set(e.job.id, e.job);
      else if (e.type === 'comment.created') comments.push(e.comment);
      else if (e.type === 'tool_request.changed') requests.set(e.request.id, e.request);
      else if (e.type === 'task.created') taskFromSse = e.task;
    }
    const rest = await b.api('GET', `/tasks/${id}`);
    expect(rest.json.jobs).toEqual([...jobs.values()]);
    expect(rest.json.comments).toEqual(comments);
    const latest = [...jobs.values()].at(-1) as Job;
    expect(latest).toMatchObject({ id: job.id, status: 'queued' });
    expect(rest.json.task).toEqual({ ...(taskFromSse as object), status: latest.status });
    expect((await b.api('GET', `/tasks/${id}/tool-requests`)).json.requests).toEqual([...requests.values()]);
    expect([...requests.values()][0]).toMatchObject({ status: 'approved', scope: 'task' });
    sse.close();
  });

  it('P10.14 a transient event (seq 0) is sent live without an id, in order, and never replayed', async () => {
    const b = await testBridge();
    const { store } = b.maestro;
    const sse = await openSse(b);
    const { task, job } = b.maestro.invoke('createTask', { instruction: 'stream' });
    const transient = {
      type: 'stream.delta' as const,
      taskId: task.id,
      jobId: job.id,
      text: 'partial',
      reasoning: '',
      toolCalls: [],
    };
    store.emitTransient(transient);
    b.maestro.invoke('addComment', { taskId: task.id, body: 'after' });
    const events = await waitForSeq(sse, lastSeq(b));
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 0, 4]);
    expect(sse.frames[3]?.id).toBeUndefined();
    expect(JSON.parse(sse.frames[3]?.data[0] ?? '{}')).toMatchObject({ ...transient, seq: 0 });
    sse.close();
    const replay = await openSse(b, '', { 'last-event-id': '0' });
    expect(seqs(await waitForSeq(replay, lastSeq(b)))).toEqual([1, 2, 3, 4]);
    replay.close();
  });

  it('P7.17 a window that joins mid-turn gets the turn so far first (no ids), then what follows live; none once it ended', async () => {
    const b = await testBridge();
    const { store } = b.maestro;
    const { task, job } = b.maestro.invoke('createTask', { instruction: 'stream' });
    store.transact(() =>
      changeJob(store, store.jobs.get(job.id) as NonNullable<ReturnType<typeof store.jobs.get>>, 'running'),
    );
    const ids = { taskId: task.id, jobId: job.id };
    const delta = (text: string) => ({ type: 'stream.delta' as const, ...ids, text, reasoning: '', toolCalls: [] });
    store.publish({ type: 'movement.entered', ...ids, movement: 'work' });
    store.emitTransient({ type: 'TurnStart', ...ids, turnCount: 1 });
    store.emitTransient(delta('Hello, '));
    store.emitTransient(delta('wor'));

    const sse = await openSse(b, `?taskId=${task.id}`);
    await sse.waitFor((events) => events.length >= 3);
    store.emitTransient(delta('ld.'));
    const events = await sse.waitFor((all) => all.length >= 4);
    expect(events.map((e) => e.type)).toEqual(['movement.entered', 'TurnStart', 'stream.delta', 'stream.delta']);
    expect(events.slice(2).map((e) => (e.type === 'stream.delta' ? e.text : ''))).toEqual(['Hello, wor', 'ld.']);
    // Sent again, they do not move the client's resume point: no ids.
    expect(sse.frames.map((f) => f.id)).toEqual([undefined, undefined, undefined, undefined]);
    sse.close();

    store.transact(() =>
      changeJob(store, store.jobs.get(job.id) as NonNullable<ReturnType<typeof store.jobs.get>>, 'succeeded'),
    );
    const after = await openSse(b, `?taskId=${task.id}`);
    b.maestro.invoke('addComment', { taskId: task.id, body: 'next' });
    const later = await waitForSeq(after, lastSeq(b));
    expect(later.some((e) => e.type === 'stream.delta' || e.type === 'TurnStart')).toBe(false);
    after.close();
  });

  it('P10.15 a client that reads slowly still gets every event once, in order (backpressure)', async () => {
    const b = await testBridge();
    const { task, job } = b.maestro.invoke('createTask', { instruction: 'x'.repeat(4000) });
    b.maestro.store.transact(() => {
      for (let i = 0; i < 1500; i++)
        b.maestro.store.publish({ type: 'task.created', taskId: task.id, jobId: job.id, task });
    });
    const listening = listenerCount(b);
    const socket = net.connect(b.port, '127.0.0.1');
    socket.write(
      `GET /api/local/events HTTP/1.1\r\nHost: 127.0.0.1:${b.port}\r\nAuthorization: Bearer ${b.token}\r\nLast-Event-ID: 0\r\n\r\n`,
    );
    socket.pause();
    await expect.poll(() => listenerCount(b)).toBe(listening + 1);
    // The stream subscribes and writes its first page of the backlog in one step, so once it listens the backlog
    // fills the socket the client does not read. Live events while the client is stalled join the queue behind it.
    b.maestro.invoke('addComment', { taskId: task.id, body: 'while stalled' });
    const last = lastSeq(b);
    let text = '';
    const all = new Promise<void>((resolve) => {
      socket.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
        if (text.includes(`id: ${last}\n`)) resolve();
      });
    });
    socket.resume();
    await all;
    socket.destroy();
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(ids).toEqual(Array.from({ length: last }, (_, i) => i + 1));
  });

  it('five clients are sent every event, read from the log once and serialised once for all of them (issue 28)', async () => {
    const b = await testBridge();
    const readsOfLog = vi.spyOn(b.maestro.store.events, 'since');
    const stringify = vi.spyOn(JSON, 'stringify');
    const start = lastSeq(b);
    const clients = await Promise.all(Array.from({ length: 5 }, () => openSse(b)));
    const taskClient = await openSse(b, '');
    const before = readsOfLog.mock.calls.length;
    stringify.mockClear();
    const created = b.maestro.invoke('createTask', { instruction: 'fanned out' });
    for (let i = 0; i < 20; i++) b.maestro.invoke('addComment', { taskId: created.task.id, body: `c${i}` });
    const head = lastSeq(b);
    const all = await Promise.all([...clients, taskClient].map((c) => waitForSeq(c, head)));
    const sent = head - start;
    for (const events of all) expect(seqs(events)).toEqual(Array.from({ length: sent }, (_, i) => start + 1 + i));
    // One read per event at most (the store announces each commit once), whatever the number of clients.
    expect(readsOfLog.mock.calls.length - before).toBeLessThanOrEqual(sent);
    // Each stored event serialised once for the six streams (not six times).
    const serialisedEvents = stringify.mock.calls.filter(([value]) => {
      const seq = (value as { seq?: unknown } | null)?.seq;
      return typeof seq === 'number' && seq > start;
    });
    expect(serialisedEvents.length).toBe(sent);
    for (const c of [...clients, taskClient]) c.close();
  });

  it('a closed stream stops listening', async () => {
    const b = await testBridge();
    const before = listenerCount(b);
    const sse = await openSse(b);
    expect(listenerCount(b)).toBe(before + 1);
    sse.close();
    await expect.poll(() => listenerCount(b)).toBe(before);
  });
});

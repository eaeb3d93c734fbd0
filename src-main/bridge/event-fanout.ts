// The events every SSE client of a host is sent, read and serialised once for all of them: the latest stored events
// are kept in memory in seq order (read from the log once each, when the store says one was committed), with each
// event's frame made the first time a client needs it. A client that has fallen behind what memory keeps (a
// reconnect after a long while) reads the log itself, as before.
import type { MaestroEvent } from '../../src-shared/events';
import type { Store } from '../db/store';

/** Stored events kept in memory: minutes of a busy host's events, a few MB at most. */
const KEPT = 4096;
/** Events read from the log at once. */
const PAGE = 500;

const sseFrame = (event: MaestroEvent): string => `id: ${event.seq}\ndata: ${JSON.stringify(event)}\n\n`;

/** Frames by event: with the event's seq as `id:`, and without (transient events, and a turn sent whole so far). */
const withId = new WeakMap<MaestroEvent, string>();
const withoutId = new WeakMap<MaestroEvent, string>();

function cached(frames: WeakMap<MaestroEvent, string>, event: MaestroEvent, make: () => string): string {
  let frame = frames.get(event);
  if (frame === undefined) {
    frame = make();
    frames.set(event, frame);
  }
  return frame;
}

/** The SSE frame of a stored event, made once however many clients are sent it. */
export const frameOf = (event: MaestroEvent): string => cached(withId, event, () => sseFrame(event));

/** The frame of an event sent without an id (Last-Event-ID keeps naming the last stored event), made once. */
export const dataFrameOf = (event: MaestroEvent): string =>
  cached(withoutId, event, () => `data: ${JSON.stringify(event)}\n\n`);

export type FanoutListener = (event: MaestroEvent) => void;

export class EventFanout {
  /** The latest stored events in seq order (not always consecutive: a deleted task's events leave gaps). */
  private kept: MaestroEvent[] = [];
  /** What is kept covers the log after this seq. */
  private base: number;
  /** ... up to this one. */
  private last: number;
  /** A commit was announced past what is kept: the log is read (once) at the next ask. */
  private behind = false;
  /** Reads of the log, for the tests that count them. */
  reads = 0;
  private readonly clients = new Set<FanoutListener>();
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly store: Store) {
    this.base = store.events.lastSeq();
    this.last = this.base;
  }

  /**
   * A client's listener of every event after commit (the store's one listener passes each on). What another
   * connection committed (no announcement reaches us) is read at the client's first ask. Returns the detach.
   */
  attach(listener: FanoutListener): () => void {
    this.behind = true;
    if (this.clients.size === 0) {
      // Nothing was kept while no client listened: start again from the present (a client behind it reads the log).
      this.kept = [];
      this.base = this.store.events.lastSeq();
      this.last = this.base;
      this.unsubscribe = this.store.subscribe((event) => {
        // On a shared database the store itself sends every host's stored events in seq order, read from the log
        // (store.ts deliver): kept as they come. Elsewhere another process may have committed too: read at the next ask.
        if (event.seq > this.last && this.store.shared && !this.behind) {
          this.kept.push(event);
          this.last = event.seq;
        } else if (event.seq > this.last) this.behind = true;
        for (const client of this.clients) client(event);
      });
    }
    this.clients.add(listener);
    return () => {
      if (!this.clients.delete(listener) || this.clients.size > 0) return;
      this.unsubscribe?.();
      this.unsubscribe = null;
    };
  }

  /**
   * Up to `limit` stored events after `seq` (of `taskId` only, when given), oldest first, and the seq through which
   * the log was looked at: a client of one quiet task moves on past the others' events instead of reading them again.
   */
  since(seq: number, taskId: string | undefined, limit = PAGE): { events: MaestroEvent[]; through: number } {
    this.catchUp();
    if (seq < this.base) {
      this.reads++;
      const events = this.store.events.since(seq, taskId, limit);
      return { events, through: events.at(-1)?.seq ?? seq };
    }
    const events: MaestroEvent[] = [];
    for (let i = this.firstAfter(seq); i < this.kept.length; i++) {
      const event = this.kept[i] as MaestroEvent;
      if (taskId && event.taskId !== taskId) continue;
      events.push(event);
      if (events.length === limit) return { events, through: event.seq };
    }
    return { events, through: Math.max(seq, this.last) };
  }

  /** The index of the first kept event after `seq` (binary search). */
  private firstAfter(seq: number): number {
    let lo = 0;
    let hi = this.kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.kept[mid] as MaestroEvent).seq <= seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Reads what was committed since the last read, once for every client. */
  private catchUp(): void {
    while (this.behind) {
      this.reads++;
      const page = this.store.events.since(this.last, undefined, PAGE);
      this.kept.push(...page);
      this.last = page.at(-1)?.seq ?? this.last;
      if (page.length < PAGE) this.behind = false;
    }
    const over = this.kept.length - KEPT;
    if (over > 0) {
      this.base = (this.kept[over - 1] as MaestroEvent).seq;
      this.kept = this.kept.slice(over);
    }
  }
}

const fanouts = new WeakMap<Store, EventFanout>();

/** The store's one fan-out. */
export function fanoutOf(store: Store): EventFanout {
  let fanout = fanouts.get(store);
  if (!fanout) {
    fanout = new EventFanout(store);
    fanouts.set(store, fanout);
  }
  return fanout;
}

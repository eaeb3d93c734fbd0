// The Store: one connection, its repositories, transactions, and events that reach subscribers only after commit.
import type { Database } from 'better-sqlite3';
import type { MaestroEvent, NewEvent } from '../../src-shared/events';
import { type OpenOptions, openDatabase } from './connection';
import { LiveTurns } from './live-turns';
import { openPostgres } from './postgres/open';
import { createA2aTasksRepo } from './repos/a2a-tasks';
import { createChatPagesRepo } from './repos/chat-pages';
import { createCheckpointsRepo } from './repos/checkpoints';
import { createCommentsRepo } from './repos/comments';
import { createEventsRepo } from './repos/events';
import { createHostsRepo } from './repos/hosts';
import { createJobGuardsRepo } from './repos/job-guards';
import { createJobsRepo } from './repos/jobs';
import { createLessonsRepo } from './repos/lessons';
import { createLogEntriesRepo } from './repos/log-entries';
import { createPackageRequestsRepo } from './repos/package-requests';
import { createScheduleRunsRepo } from './repos/schedule-runs';
import { createSpacesRepo } from './repos/spaces';
import { createTaskGrantsRepo } from './repos/task-grants';
import { createTaskPagesRepo } from './repos/task-pages';
import { createTasksRepo } from './repos/tasks';
import { createToolRequestsRepo } from './repos/tool-requests';
import { createTranscriptsRepo } from './repos/transcripts';
import { type Dialect, dialectOf, type SqlDatabase } from './sql';

export type EventListener = (event: MaestroEvent) => void;

/** Events read from the log at once when catching up with other hosts. */
const LOG_PAGE = 1000;

export class Store {
  readonly tasks;
  readonly jobs;
  readonly comments;
  readonly toolRequests;
  readonly packageRequests;
  readonly taskGrants;
  readonly checkpoints;
  readonly jobGuards;
  readonly events;
  readonly logEntries;
  readonly spaces;
  readonly scheduleRuns;
  readonly chatPages;
  readonly taskPages;
  readonly a2aTasks;
  readonly lessons;
  readonly hosts;
  /** Transcripts in the database: used where it is shared (jobs/transcripts.ts); alone on SQLite they are files. */
  readonly transcripts;
  /** The turns being generated now, for a window that joins mid-stream (liveEvents). */
  private readonly live = new LiveTurns();
  private readonly listeners = new Set<EventListener>();
  private pending: MaestroEvent[] | null = null;
  /** One transaction wrapper for every transact (better-sqlite3 builds five functions per transaction() call). */
  private readonly inTransaction: ReturnType<SqlDatabase['transaction']>;
  private readonly queue: MaestroEvent[] = [];
  private dispatching = false;
  /**
   * On a database other hosts write too (PostgreSQL), stored events reach listeners from the log, in seq order, with
   * the other hosts' events among this host's own (deliver): the log has been dispatched up to this seq.
   */
  private caughtUp = 0;
  /** This host's events dispatched before the log was read up to them (a read failed): not to be sent again. */
  private readonly ahead = new Set<number>();

  readonly dialect: Dialect;

  constructor(readonly db: SqlDatabase) {
    this.dialect = dialectOf(db);
    this.inTransaction = db.transaction((fn: () => unknown) => fn());
    this.tasks = createTasksRepo(db);
    this.jobs = createJobsRepo(db);
    this.comments = createCommentsRepo(db);
    this.toolRequests = createToolRequestsRepo(db);
    this.packageRequests = createPackageRequestsRepo(db);
    this.taskGrants = createTaskGrantsRepo(db);
    this.checkpoints = createCheckpointsRepo(db);
    this.jobGuards = createJobGuardsRepo(db);
    this.events = createEventsRepo(db);
    this.logEntries = createLogEntriesRepo(db);
    this.spaces = createSpacesRepo(db);
    this.scheduleRuns = createScheduleRunsRepo(db);
    this.chatPages = createChatPagesRepo(db);
    this.taskPages = createTaskPagesRepo(db);
    this.a2aTasks = createA2aTasksRepo(db);
    this.lessons = createLessonsRepo(db);
    this.hosts = createHostsRepo(db);
    this.transcripts = createTranscriptsRepo(db);
    if (this.shared) this.caughtUp = this.events.lastSeq();
  }

  static open(file: string, options?: OpenOptions): Store {
    return new Store(openDatabase(file, options));
  }

  /** A PostgreSQL database shared by several hosts, migrated first (postgres/open.ts). */
  static async openPostgres(url: string): Promise<Store> {
    return new Store((await openPostgres(url)) as unknown as SqlDatabase);
  }

  /** The SQLite file's connection, for what only SQLite has (its pragmas, VACUUM); null on PostgreSQL. */
  get sqlite(): Database | null {
    return this.dialect === 'sqlite' ? (this.db as Database) : null;
  }

  /**
   * Runs `fn` in one IMMEDIATE transaction (the write lock is taken up front, so reads inside it see the state the
   * writes commit against). Events published inside reach listeners after the commit, and never on rollback.
   */
  transact<T>(fn: () => T): T {
    if (this.pending) return fn();
    this.pending = [];
    let events: MaestroEvent[];
    let result: T;
    try {
      result = this.inTransaction.immediate(fn) as T;
      events = this.pending;
    } finally {
      this.pending = null;
    }
    this.deliver(events);
    return result;
  }

  /** Whether other hosts write to this database too. */
  get shared(): boolean {
    return this.dialect === 'postgres';
  }

  /**
   * Sends listeners what other hosts committed since the last look (on a shared database; a no-op otherwise). Called
   * when PostgreSQL notifies a commit, and now and then in case a notification was missed.
   */
  catchUp(): void {
    if (this.shared) this.deliver([]);
  }

  /** Appends an event to the log; listeners get it now, or after the surrounding transaction commits. */
  publish(event: NewEvent): MaestroEvent {
    const stored = this.events.append(event);
    if (this.pending) this.pending.push(stored);
    else this.deliver([stored]);
    return stored;
  }

  /**
   * Pushes an event to listeners without storing it (seq 0, never replayed): streaming deltas, the steps the chat
   * shows. Like a stored one, it reaches them after the surrounding transaction commits, and never on rollback.
   */
  emitTransient(event: NewEvent): void {
    const sent = { ...event, seq: 0, ts: new Date().toISOString() } as MaestroEvent;
    if (this.pending) this.pending.push(sent);
    else this.dispatch([sent]);
  }

  /**
   * What a subscriber that joins now sends first, after the stored events it missed: the events of each turn being
   * generated (for `taskId`, or every task), so that a window opened mid-stream shows the turn whole.
   */
  liveEvents(taskId?: string): MaestroEvent[] {
    return this.live.replay(taskId);
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.listeners.clear();
    if (this.db.open) this.db.close();
  }

  /**
   * Committed events to listeners. On a shared database the log is read past what was dispatched, and every other
   * host's event there goes out before this host's events with a larger seq, so listeners (and the SSE clients behind
   * them) see one order on every host. A failed read leaves the others' events for the next one.
   */
  private deliver(events: MaestroEvent[]): void {
    if (!this.shared) {
      this.dispatch(events);
      return;
    }
    const own = new Set(events.map((e) => e.seq));
    const others: MaestroEvent[] = [];
    try {
      for (;;) {
        const page = this.events.since(this.caughtUp, undefined, LOG_PAGE);
        others.push(...page.filter((e) => !own.has(e.seq) && !this.ahead.has(e.seq)));
        this.caughtUp = page.at(-1)?.seq ?? this.caughtUp;
        if (page.length < LOG_PAGE) break;
      }
    } catch (error) {
      console.error('events of other hosts could not be read; trying again later:', error);
    }
    for (const seq of this.ahead) if (seq <= this.caughtUp) this.ahead.delete(seq);
    for (const seq of own) if (seq > this.caughtUp) this.ahead.add(seq);
    const merged: MaestroEvent[] = [];
    for (const event of events) {
      while (event.seq > 0 && others.length > 0 && (others[0] as MaestroEvent).seq < event.seq)
        merged.push(others.shift() as MaestroEvent);
      merged.push(event);
    }
    this.dispatch([...merged, ...others]);
  }

  /**
   * Events published by a listener during a dispatch wait their turn behind all of the commit being dispatched, so
   * every listener sees seq order.
   */
  private dispatch(events: MaestroEvent[]): void {
    this.queue.push(...events);
    if (this.dispatching) return;
    this.dispatching = true;
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) {
        this.live.fold(next);
        for (const listener of this.listeners) {
          try {
            listener(next);
          } catch (error) {
            console.error('event listener failed:', error);
          }
        }
      }
    } finally {
      this.dispatching = false;
    }
  }
}

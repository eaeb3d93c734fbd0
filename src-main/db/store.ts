// The Store: one connection, its repositories, transactions, and events that reach subscribers only after commit.
import type { Database } from 'better-sqlite3';
import type { MaestroEvent, NewEvent } from '../../src-shared/events';
import { type OpenOptions, openDatabase } from './connection';
import { LiveTurns } from './live-turns';
import { createA2aTasksRepo } from './repos/a2a-tasks';
import { createChatPagesRepo } from './repos/chat-pages';
import { createCheckpointsRepo } from './repos/checkpoints';
import { createCommentsRepo } from './repos/comments';
import { createEventsRepo } from './repos/events';
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

export type EventListener = (event: MaestroEvent) => void;

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
  /** The turns being generated now, for a window that joins mid-stream (liveEvents). */
  private readonly live = new LiveTurns();
  private readonly listeners = new Set<EventListener>();
  private pending: MaestroEvent[] | null = null;
  private readonly queue: MaestroEvent[] = [];
  private dispatching = false;

  constructor(readonly db: Database) {
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
  }

  static open(file: string, options?: OpenOptions): Store {
    return new Store(openDatabase(file, options));
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
      result = this.db.transaction(fn).immediate();
      events = this.pending;
    } finally {
      this.pending = null;
    }
    for (const event of events) this.dispatch(event);
    return result;
  }

  /** Appends an event to the log; listeners get it now, or after the surrounding transaction commits. */
  publish(event: NewEvent): MaestroEvent {
    const stored = this.events.append(event);
    if (this.pending) this.pending.push(stored);
    else this.dispatch(stored);
    return stored;
  }

  /**
   * Pushes an event to listeners without storing it (seq 0, never replayed): streaming deltas, the steps the chat
   * shows. Like a stored one, it reaches them after the surrounding transaction commits, and never on rollback.
   */
  emitTransient(event: NewEvent): void {
    const sent = { ...event, seq: 0, ts: new Date().toISOString() } as MaestroEvent;
    if (this.pending) this.pending.push(sent);
    else this.dispatch(sent);
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

  /** Events published by a listener during a dispatch wait their turn, so every listener sees seq order. */
  private dispatch(event: MaestroEvent): void {
    this.queue.push(event);
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

// The Worker: polls for claimable jobs, runs each (prepared by prepare-job.ts) through the engine with a heartbeat and
// an abort signal, maps the result to DB state, and sends jobs whose worker died (stale heartbeat) back to retry —
// at start, when this host holds the data dir's lock, every job left running by an earlier host, without waiting.

import { randomBytes } from 'node:crypto';
import type { JobRecord } from '../db/repos/jobs';
import { StorageAlarm } from '../db/storage-fault';
import type { Store } from '../db/store';
import { abortOf } from '../engine/abort';
import type { Engine, PieceRunContext } from '../engine/piece-result';
import type { PieceCatalog, PieceDefinition } from '../engine/pieces/catalog';
import type { JobAborts } from '../jobs/aborts';
import { handlePieceResult } from '../jobs/apply-result';
import { heartbeat as beat, claim, decline, recover } from '../jobs/claim';
import { publishJobMetrics } from '../jobs/metrics';
import type { PieceRunResult } from '../jobs/piece-run-result';
import { endReflection, queueReflection, type ReflectionMode, reflectsOn } from '../jobs/reflection';
import { JobCommandError } from '../jobs/refusal';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../jobs/retry-policy';
import { retryLater } from '../jobs/run-outcomes';
import { runReflection } from '../lessons/run-reflection';
import type { McpJobServers, McpSession } from '../mcp/session';
import type { AnyToolDef } from '../tools/types';
import { JobPreparation, type Prepared } from './prepare-job';

export interface WorkerOptions {
  store: Store;
  engine: Engine;
  pieces: PieceCatalog;
  aborts: JobAborts;
  dataDir: string;
  workerId?: string;
  /** Profiles this worker serves; null (default) serves every job. */
  profiles?: readonly (string | null)[] | null;
  /** Whether this worker can run the job with its piece (model/tool requirements); false → back to queued. */
  serves?: (job: JobRecord, piece: PieceDefinition) => boolean;
  /** The MCP servers of a job's workspace, opened before the engine runs and closed when the job ends. */
  mcp?: McpJobServers;
  concurrency?: number;
  pollIntervalMs?: number;
  heartbeatIntervalMs?: number;
  staleAfterMs?: number;
  /** How long stop() waits for aborted jobs to end before persisting them for the next start anyway. */
  stopTimeoutMs?: number;
  /**
   * At start, every running job of another worker goes back to retry at once, stale or not. Only for a host that
   * holds the data dir's lock (host-lock.ts) and is alone on its database: then those jobs were left by one that died.
   * `{ workerIdPrefix }`: only those of workers with that prefix, this data dir's earlier hosts (several hosts share
   * the database; the others' jobs are theirs until their heartbeats go stale).
   */
  recoverAllOnStart?: boolean | { workerIdPrefix: string };
  /** The name of this host, written on each job it claims (Job.host). */
  host?: string;
  /**
   * The workspace folders this host can run jobs in, asked at each claim; absent: every folder (a host alone on its
   * database).
   */
  folders?: () => readonly string[];
  retry?: RetryPolicy;
  /** After a job ran and succeeded (its state already persisted): the workspace commit (P2.21). Never throws. */
  afterSucceeded?: (job: JobRecord) => Promise<void>;
  /**
   * When a job of a task's work that ended is reflected on by itself (P2.08), read as each job ends (Settings may
   * change it meanwhile). Default `off`; the app passes its space's, else the settings' (default `failures`).
   */
  reflectionMode?: (job: JobRecord) => ReflectionMode;
  /** The secrets this host knows (the profiles' API keys), redacted from what a Reflection stores. */
  secrets?: () => readonly string[];
}

export interface RunningJob {
  job: JobRecord;
  done: Promise<JobRecord | undefined>;
}

/** How long a declined job is left to other workers before this one looks at it again. */
const DECLINE_MS = 60_000;
const SHUTDOWN = 'the host is shutting down';
/** How often a job's outcome is tried again while the storage refuses it (a lock, a full disk). */
const STORAGE_RETRY_MS = 500;

export class Worker {
  readonly id: string;
  private readonly running = new Map<string, RunningJob>();
  /** Jobs this worker does not serve, by id, with when it declined them. */
  private readonly declined = new Map<string, number>();
  private readonly heartbeats = new Map<string, NodeJS.Timeout>();
  private pollTimer: NodeJS.Timeout | undefined;
  private poked: NodeJS.Immediate | undefined;
  private lastRecovery = 0;
  private stopping = false;
  private readonly storage: StorageAlarm;
  private readonly preparation: JobPreparation;
  private readonly o: Required<
    Omit<
      WorkerOptions,
      'workerId' | 'serves' | 'profiles' | 'mcp' | 'afterSucceeded' | 'reflectionMode' | 'secrets' | 'host' | 'folders'
    >
  > &
    Pick<
      WorkerOptions,
      'serves' | 'profiles' | 'mcp' | 'afterSucceeded' | 'reflectionMode' | 'secrets' | 'host' | 'folders'
    >;

  constructor(options: WorkerOptions) {
    this.id = options.workerId ?? `worker_${randomBytes(6).toString('hex')}`;
    this.o = {
      concurrency: 1,
      pollIntervalMs: 250,
      heartbeatIntervalMs: 5_000,
      staleAfterMs: 30_000,
      stopTimeoutMs: 10_000,
      recoverAllOnStart: false,
      retry: DEFAULT_RETRY_POLICY,
      ...options,
    };
    this.preparation = new JobPreparation(options);
    this.storage = new StorageAlarm(`worker ${this.id}`);
  }

  get activeJobs(): number {
    return this.running.size;
  }

  /** Recovers stale jobs (or all others' running jobs, with recoverAllOnStart), then polls until stopped. */
  start(): void {
    this.stopping = false;
    const left = this.o.recoverAllOnStart;
    if (left) this.recoverLeftRunning(Date.now(), left === true ? '' : left.workerIdPrefix);
    this.recover();
    this.poll();
  }

  /** Polls now (e.g. right after a job was queued or one ended) instead of at the next interval. */
  poke(): void {
    // On the next turn of the event loop (a zero timeout waits a millisecond or more).
    if (!this.stopping && this.pollTimer) this.poked ??= setImmediate(this.poll);
  }

  private readonly poll = (): void => {
    clearImmediate(this.poked);
    this.poked = undefined;
    if (this.stopping) return;
    let claimed = false;
    try {
      if (Date.now() - this.lastRecovery > this.o.staleAfterMs / 2) this.recover();
      claimed = this.processNext() !== undefined;
    } catch (error) {
      // A locked or full database: nothing was claimed; the next poll tries again.
      if (!this.storage.noted(error)) console.error('worker poll failed:', error);
    }
    // One claim per turn of the event loop: a burst of queued jobs starts one after another without holding the loop
    // (a job's claim and preparation take milliseconds), so requests and streams go on between them.
    if (claimed) this.poked ??= setImmediate(this.poll);
    else this.schedule(this.o.pollIntervalMs);
  };

  private schedule(ms: number): void {
    clearTimeout(this.pollTimer);
    this.pollTimer = setTimeout(this.poll, ms);
  }

  /**
   * Stops claiming; running jobs are aborted and go back to retry at once, uncounted, so the next start resumes them.
   * Resolves when every running job has been persisted, or after stopTimeoutMs: a job whose engine ignores the abort
   * is then persisted for the next start anyway, and the engine's late result loses its CAS.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.pollTimer = undefined;
    clearImmediate(this.poked);
    this.poked = undefined;
    for (const id of this.running.keys()) this.o.aborts.abort(id, SHUTDOWN, 'shutdown');
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<true>((resolve) => {
      timer = setTimeout(() => resolve(true), this.o.stopTimeoutMs);
    });
    const late = await Promise.race([this.idle().then(() => false), timedOut]);
    clearTimeout(timer);
    if (!late) return;
    for (const { job } of this.running.values()) {
      clearInterval(this.heartbeats.get(job.id));
      this.backToRetryUncounted(job);
    }
  }

  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()].map((r) => r.done));
  }

  /**
   * Claims one job when there is capacity and starts it; undefined when nothing was started (nothing claimable, or
   * the claimed job went back to the queue because this worker does not serve it).
   */
  processNext(): RunningJob | undefined {
    if (this.stopping || this.running.size >= this.o.concurrency) return undefined;
    const { store } = this.o;
    for (const [id, at] of this.declined) if (Date.now() - at > DECLINE_MS) this.declined.delete(id);
    const job = claim(store, {
      workerId: this.id,
      host: this.o.host ?? null,
      serves: this.o.folders?.() ?? null,
      profiles: this.o.profiles ?? null,
      exclude: [...this.declined.keys()],
    });
    if (!job) return undefined;
    // Spec §2 F→FR: a Reflection job takes its own path — no workspace, piece, MCP or agent preparation.
    if (job.kind === 'reflection') return this.track({ job, done: this.executeReflection(job) });
    let prepared: Prepared;
    try {
      prepared = this.preparation.prepare(job);
    } catch (error) {
      prepared = { kind: 'fatal', result: { kind: 'error', message: errorText(error), retryable: true } };
    }
    if (prepared.kind === 'requeue') {
      // Decided before anything ran; the job is left to other workers for a while instead of blocking this queue.
      this.declined.set(job.id, Date.now());
      try {
        decline(store, job.id, this.id);
      } catch (error) {
        // Cancelled (by another process) between the claim and now: it is not ours to give back any more.
        if (!(error instanceof JobCommandError)) throw error;
      }
      return undefined;
    }
    const done = this.executeJob(job, prepared).then((after) => this.reflectAfter(after));
    return this.track({ job, done });
  }

  private track(run: RunningJob): RunningJob {
    const { job } = run;
    this.running.set(job.id, run);
    run.done
      .catch((error) => console.error(`job ${job.id} could not be persisted:`, error))
      .finally(() => {
        if (this.running.get(job.id) === run) this.running.delete(job.id);
        this.poke();
      });
    return run;
  }

  /**
   * A job of the task's work that ended as the settings say is looked back on (P2.08): a Reflection job of its task is
   * queued. A Reflection job never queues another (reflectsOn: only `run` jobs). Never throws: the job's own state is
   * written already.
   */
  private reflectAfter(after: JobRecord | undefined): JobRecord | undefined {
    try {
      if (!after || !this.o.engine.reflect) return after;
      const mode = this.o.reflectionMode?.(after) ?? 'off';
      if (reflectsOn(mode, after)) queueReflection(this.o.store, after.taskId);
    } catch (error) {
      if (!this.storage.noted(error)) console.error(`no Reflection queued after ${after?.id}:`, error);
    }
    return after;
  }

  /**
   * A Reflection job: one request with the task's record, its lessons stored as `proposed`, ended terminal — or failed
   * with the reason and nothing stored. Held with a heartbeat like any job; cancelled or shut down through its signal.
   */
  private async executeReflection(job: JobRecord): Promise<JobRecord | undefined> {
    const { store } = this.o;
    const { signal, release } = this.hold(job);
    const started = Date.now();
    try {
      const outcome = await runReflection(store, this.o.engine, job, signal, this.o.secrets ?? (() => []));
      const after = await this.persist(() => {
        if (signal.aborted && abortOf(signal).kind === 'shutdown') return this.backToRetryUncounted(job);
        try {
          return endReflection(store, job.id, this.id, outcome).job;
        } catch (error) {
          // Cancelled (or recovered) while its request ran: it is no longer this worker's to end.
          if (error instanceof JobCommandError) return store.jobs.get(job.id);
          throw error;
        }
      });
      return this.metrics(job, started, after);
    } finally {
      release();
    }
  }

  /** Holds a claimed job while it runs: its abort signal and its heartbeat, both given back by `release`. */
  private hold(job: JobRecord): { signal: AbortSignal; release(): void } {
    const { store, aborts } = this.o;
    const signal = aborts.register(job.id);
    const heartbeat = setInterval(() => {
      try {
        if (!beat(store, job.id, this.id))
          aborts.abort(job.id, 'the job is no longer held by this worker', 'lease_lost');
        this.storage.cleared();
      } catch (error) {
        // Missed beats while the storage refuses writes are harmless: recover() skips this worker's running jobs.
        if (!this.storage.noted(error)) console.error(`heartbeat of ${job.id} failed:`, error);
      }
    }, this.o.heartbeatIntervalMs);
    heartbeat.unref();
    this.heartbeats.set(job.id, heartbeat);
    return {
      signal,
      release: () => {
        clearInterval(heartbeat);
        if (this.heartbeats.get(job.id) === heartbeat) this.heartbeats.delete(job.id);
        aborts.release(job.id, signal);
      },
    };
  }

  /**
   * Running jobs whose heartbeat went stale (their worker died) go back to retry like any retryable error: with
   * backoff while attempts remain, failed with an error comment at the limit (a job that kills its worker cannot
   * loop forever).
   */
  recover(now = Date.now()): JobRecord[] {
    this.lastRecovery = now;
    const cutoff = now - this.o.staleAfterMs;
    return this.sendBack(cutoff, now, (job) => `worker ${job.workerId} stopped responding`);
  }

  /**
   * Every running job of another worker goes back to retry as recover() sends stale ones, whatever its heartbeat
   * says: the caller holds the data dir's lock, so the host that ran it is gone (killed, crashed, or the machine
   * restarted). The interrupted job goes on within a poll instead of after the stale window.
   */
  recoverLeftRunning(now = Date.now(), workerIdPrefix = ''): JobRecord[] {
    const why = (job: JobRecord) => `the host running it (${job.host ?? `worker ${job.workerId}`}) stopped`;
    return this.sendBack(Number.MAX_SAFE_INTEGER, now, why, workerIdPrefix);
  }

  private sendBack(cutoff: number, now: number, why: (job: JobRecord) => string, workerIdPrefix = ''): JobRecord[] {
    const { store } = this.o;
    const recovered: JobRecord[] = [];
    for (const stale of store.jobs.staleRunning(cutoff)) {
      if (!stale.workerId?.startsWith(workerIdPrefix)) continue;
      // This worker's own running job is alive whatever its heartbeat says (a lock may have held the heartbeat back).
      if (this.running.has(stale.id)) continue;
      const back = recover(store, stale.id, { cutoff, self: this.id }, (job) =>
        handlePieceResult(
          store,
          job,
          { kind: 'error', message: why(job), retryable: true },
          { workerId: job.workerId, retry: this.o.retry, now },
        ),
      );
      if (back) recovered.push(back);
    }
    return recovered;
  }

  private async executeJob(
    job: JobRecord,
    prepared: Exclude<Prepared, { kind: 'requeue' }>,
  ): Promise<JobRecord | undefined> {
    const { signal, release } = this.hold(job);
    let engineRan = false;
    let mcp: McpSession | undefined;
    const started = Date.now();
    try {
      try {
        let result: PieceRunResult;
        if (prepared.kind === 'wait') {
          const parked = prepared.result;
          const after = await this.persist(() => this.finish(job, parked, signal, engineRan));
          return this.metrics(job, started, this.preparation.resumeIfSettingsReviewed(after));
        }
        if (prepared.kind === 'run') prepared = await this.preparation.route(job, prepared, signal);
        if (prepared.kind === 'fatal') result = prepared.result;
        else {
          const opened = await this.preparation.openMcp(job, prepared, signal);
          if (opened.kind === 'stop') {
            const after = await this.persist(() => this.finish(job, opened.result, signal, engineRan));
            return this.metrics(job, started, this.preparation.resumeIfTokenSaved(after, opened.savedCount));
          }
          mcp = opened.session;
          engineRan = true;
          result = await this.runEngine(job, { ...prepared, mcpTools: mcp?.tools ?? [] }, signal);
        }
        const after = await this.persist(() => this.finish(job, result, signal, engineRan));
        if (after?.status === 'succeeded') await this.afterSucceeded(after);
        return this.metrics(job, started, after);
      } catch (error) {
        const result = this.thrownResult(error);
        return this.metrics(job, started, await this.persist(() => this.finish(job, result, signal, engineRan)));
      }
    } finally {
      release();
      // The job's state is persisted first; its MCP server processes end after it (or were killed on cancel), unless
      // it waits for a person or its subtasks: then they are kept for its resume, within the settings' limits.
      if (mcp && !this.keepMcp(job, mcp, signal))
        await mcp.close().catch((error) => console.error(`MCP servers of ${job.id} did not close:`, error));
    }
  }

  private keepMcp(job: JobRecord, session: McpSession, signal: AbortSignal): boolean {
    if (signal.aborted || !this.o.mcp?.keep) return false;
    const status = this.o.store.jobs.get(job.id)?.status;
    if (status !== 'waiting_human' && status !== 'waiting_subtasks') return false;
    return this.o.mcp.keep(job.taskId, session);
  }

  private async afterSucceeded(job: JobRecord): Promise<void> {
    try {
      await this.o.afterSucceeded?.(job);
    } catch (error) {
      console.error(`after ${job.id} succeeded:`, error);
    }
  }

  private async runEngine(
    job: JobRecord,
    prepared: Omit<PieceRunContext, 'job' | 'task' | 'signal'> & { mcpTools: readonly AnyToolDef[] },
    signal: AbortSignal,
  ): Promise<PieceRunResult> {
    const task = this.o.store.tasks.get(job.taskId);
    if (!task) return { kind: 'error', message: `task ${job.taskId} does not exist`, retryable: false };
    const { piece, start, workspacePath, runtimeDir, mcpTools } = prepared;
    return this.o.engine.runPiece({ job, task, signal, piece, start, workspacePath, runtimeDir, mcpTools });
  }

  private finish(job: JobRecord, result: PieceRunResult, signal: AbortSignal, engineRan: boolean) {
    const shutdown = signal.aborted && abortOf(signal).kind === 'shutdown';
    // Only the outcome of the abort itself is the shutdown's; an answer the run reached (complete, ASK, approval,
    // subtasks) is persisted as it is.
    if (shutdown && (result.kind === 'cancelled' || result.kind === 'error')) return this.backToRetryUncounted(job);
    return handlePieceResult(this.o.store, job, result, { workerId: this.id, retry: this.o.retry, engineRan });
  }

  /**
   * What a run that threw ends in. A write the storage refused (the engine writes each step through) is not the job's
   * fault: back to retry without using an attempt, waited like an outage that has just begun, and resumed from its
   * last recorded step; the job's error says what happened.
   */
  private thrownResult(error: unknown): PieceRunResult {
    const fault = this.storage.noted(error);
    if (fault) return { kind: 'error', message: `${fault.message} (${fault.code})`, retryable: true, outageMs: 0 };
    return { kind: 'error', message: errorText(error), retryable: true };
  }

  /**
   * Writes a job's outcome; while the storage refuses it (another process holds the lock, the disk is full), tries
   * again every STORAGE_RETRY_MS from the event loop, the heartbeat keeping the job held meanwhile. On stop it gives
   * up: the job is still `running` in the DB and the next start recovers it.
   */
  private async persist<T>(write: () => T): Promise<T> {
    for (;;) {
      // Not in the same turn as a write that just waited out the busy timeout: two such waits in a row would stall
      // the event loop twice as long.
      if (this.storage.fault) await new Promise((resolve) => setTimeout(resolve, STORAGE_RETRY_MS));
      try {
        const written = write();
        this.storage.cleared();
        return written;
      } catch (error) {
        if (!this.storage.noted(error) || this.stopping) throw error;
      }
    }
  }

  private metrics(job: JobRecord, started: number, after: JobRecord | undefined): JobRecord | undefined {
    try {
      publishJobMetrics(this.o.store, job, Date.now() - started, after);
    } catch (error) {
      // The job's state is written; only its metrics event is lost.
      if (!this.storage.noted(error)) throw error;
    }
    return after;
  }

  /** Not the job's fault (host shutting down): back to retry, due now, and this attempt does not count. */
  private backToRetryUncounted(job: JobRecord): JobRecord | undefined {
    const { store } = this.o;
    const run = { workerId: this.id, engineRan: true };
    const back = { nextRetryAt: Date.now(), counted: false, error: SHUTDOWN, errorCode: null };
    return store.transact(() => {
      // A job cancelled (or recovered) meanwhile is no longer this worker's to send back.
      const current = store.jobs.get(job.id);
      if (current?.status !== 'running' || current.workerId !== this.id) return undefined;
      return retryLater(store, job.id, run, { ...back, resumeMovement: current.resumeMovement });
    });
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

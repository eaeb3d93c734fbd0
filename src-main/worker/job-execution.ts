// Running one claimed job for the Worker: held with a heartbeat and an abort signal, run through the engine (or as a
// Reflection), its outcome written to the DB — tried again while the storage refuses it — with its metrics.

import type { JobRecord } from '../db/repos/jobs';
import type { StorageAlarm } from '../db/storage-fault';
import { abortOf } from '../engine/abort';
import type { PieceRunContext } from '../engine/piece-result';
import { handlePieceResult } from '../jobs/apply-result';
import { heartbeat as beat } from '../jobs/claim';
import { publishJobMetrics } from '../jobs/metrics';
import type { PieceRunResult } from '../jobs/piece-run-result';
import { endReflection, queueReflection, reflectsOn } from '../jobs/reflection';
import { JobCommandError } from '../jobs/refusal';
import { retryLater } from '../jobs/run-outcomes';
import { runReflection } from '../lessons/run-reflection';
import type { McpSession } from '../mcp/session';
import type { AnyToolDef } from '../tools/types';
import type { JobPreparation, Prepared } from './prepare-job';
import type { ResolvedWorkerOptions } from './worker';

export const SHUTDOWN = 'the host is shutting down';
/** How often a job's outcome is tried again while the storage refuses it (a lock, a full disk). */
const STORAGE_RETRY_MS = 500;

export class JobExecution {
  /** The heartbeat of each job held, by id. */
  readonly heartbeats = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly id: string,
    private readonly o: ResolvedWorkerOptions,
    private readonly storage: StorageAlarm,
    private readonly preparation: JobPreparation,
    /** Whether the Worker is stopping: an outcome the storage refuses is then left for the next start. */
    private readonly stopping: () => boolean,
  ) {}

  /**
   * A job of the task's work that ended as the settings say is looked back on (P2.08): a Reflection job of its task is
   * queued. A Reflection job never queues another (reflectsOn: only `run` jobs). Never throws: the job's own state is
   * written already.
   */
  reflectAfter(after: JobRecord | undefined): JobRecord | undefined {
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
  async executeReflection(job: JobRecord): Promise<JobRecord | undefined> {
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

  async executeJob(job: JobRecord, prepared: Exclude<Prepared, { kind: 'requeue' }>): Promise<JobRecord | undefined> {
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
        if (!this.storage.noted(error) || this.stopping()) throw error;
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
  backToRetryUncounted(job: JobRecord): JobRecord | undefined {
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

export function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

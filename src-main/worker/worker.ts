// The Worker: polls for claimable jobs, starts each (prepared by prepare-job.ts, run by job-execution.ts) up to its
// concurrency, and sends jobs whose worker died (stale heartbeat) back to retry — at start, when this host holds the
// data dir's lock, every job left running by an earlier host, without waiting.

import { randomBytes } from 'node:crypto';
import type { JobRecord } from '../db/repos/jobs';
import { StorageAlarm } from '../db/storage-fault';
import type { Store } from '../db/store';
import type { Engine } from '../engine/piece-result';
import type { PieceCatalog, PieceDefinition } from '../engine/pieces/catalog';
import type { JobAborts } from '../jobs/aborts';
import { handlePieceResult } from '../jobs/apply-result';
import { claim, decline, recover } from '../jobs/claim';
import type { ReflectionMode } from '../jobs/reflection';
import { JobCommandError } from '../jobs/refusal';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../jobs/retry-policy';
import type { McpJobServers } from '../mcp/session';
import { errorText, JobExecution, SHUTDOWN } from './job-execution';
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

/** The Worker's options with its defaults filled in. */
export type ResolvedWorkerOptions = Required<
  Omit<
    WorkerOptions,
    'workerId' | 'serves' | 'profiles' | 'mcp' | 'afterSucceeded' | 'reflectionMode' | 'secrets' | 'host' | 'folders'
  >
> &
  Pick<
    WorkerOptions,
    'serves' | 'profiles' | 'mcp' | 'afterSucceeded' | 'reflectionMode' | 'secrets' | 'host' | 'folders'
  >;

export class Worker {
  readonly id: string;
  private readonly running = new Map<string, RunningJob>();
  /** Jobs this worker does not serve, by id, with when it declined them. */
  private readonly declined = new Map<string, number>();
  private pollTimer: NodeJS.Timeout | undefined;
  private poked: NodeJS.Immediate | undefined;
  private lastRecovery = 0;
  private stopping = false;
  private readonly storage: StorageAlarm;
  private readonly preparation: JobPreparation;
  private readonly execution: JobExecution;
  private readonly o: ResolvedWorkerOptions;

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
    this.execution = new JobExecution(this.id, this.o, this.storage, this.preparation, () => this.stopping);
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
      clearInterval(this.execution.heartbeats.get(job.id));
      this.execution.backToRetryUncounted(job);
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
    if (job.kind === 'reflection') return this.track({ job, done: this.execution.executeReflection(job) });
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
    const done = this.execution.executeJob(job, prepared).then((after) => this.execution.reflectAfter(after));
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
}

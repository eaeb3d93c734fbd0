// Repository of the jobs table: inserts, compare-and-set status changes checked against the state machine,
// the atomic claim (retry-due first, then queued, one running job per task), heartbeats and stale recovery.
import type { Statement } from 'better-sqlite3';
import type { Job, JobErrorCode, JobStatus, WaitReason } from '../../../src-shared/entities';
import type { InvokeKind } from '../../../src-shared/events';
import { iso, isoOrNull, newId } from '../ids';
import { dialectOf, jsonValues, type SqlDatabase } from '../sql';

export type { InvokeKind };

interface JobRow {
  id: string;
  task_id: string;
  created_at: number;
  updated_at: number;
  status: JobStatus;
  wait_reason: WaitReason | null;
  piece_id: string;
  profile: string | null;
  resume_movement: string | null;
  ask_count: number;
  attempt: number;
  next_retry_at: number | null;
  continued_from_job_id: string | null;
  parent_job_id: string | null;
  pending_invoke: InvokeKind | null;
  worker_id: string | null;
  host: string | null;
  heartbeat_at: number | null;
  started_at: number | null;
  finished_at: number | null;
  error: string | null;
  error_code: JobErrorCode | null;
  result: string | null;
  kind: JobKind;
}

/** `run`: the task's work (the piece); `reflection`: a look back on the task's record that proposes lessons (P2.08). */
export type JobKind = 'run' | 'reflection';

/** A job as the Worker and engine see it: the contract's Job plus the fields only main needs. */
export interface JobRecord extends Job {
  /** The Invoke the next run must open (null: the run continues the current Invoke range, e.g. after an approval). */
  pendingInvoke: InvokeKind | null;
  kind: JobKind;
}

const rowToJob = (r: JobRow): JobRecord => ({
  id: r.id,
  taskId: r.task_id,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
  status: r.status,
  waitReason: r.wait_reason,
  pieceId: r.piece_id,
  profile: r.profile,
  resumeMovement: r.resume_movement,
  askCount: r.ask_count,
  attempt: r.attempt,
  nextRetryAt: isoOrNull(r.next_retry_at),
  continuedFromJobId: r.continued_from_job_id,
  parentJobId: r.parent_job_id,
  workerId: r.worker_id,
  host: r.host,
  heartbeatAt: isoOrNull(r.heartbeat_at),
  error: r.error,
  // Only when there is one: a Job without a code reads as it did before the column existed.
  ...(r.error_code ? { errorCode: r.error_code } : {}),
  result: r.result,
  pendingInvoke: r.pending_invoke,
  kind: r.kind,
});

/** The public Job of the contract, without main-only fields. */
export const toJob = ({ pendingInvoke: _pendingInvoke, kind, ...job }: JobRecord): Job =>
  kind === 'reflection' ? { ...job, kind } : job;

export interface NewJob {
  taskId: string;
  pieceId: string;
  profile: string | null;
  pendingInvoke: InvokeKind | null;
  /** Default `run`. */
  kind?: JobKind;
  resumeMovement?: string | null;
  askCount?: number;
  continuedFromJobId?: string | null;
  parentJobId?: string | null;
}

/** Columns a status change may set besides status (undefined = leave as is). */
export interface JobPatch {
  waitReason?: WaitReason | null;
  resumeMovement?: string | null;
  askCount?: number;
  attempt?: number;
  nextRetryAt?: number | null;
  workerId?: string | null;
  host?: string | null;
  heartbeatAt?: number | null;
  finishedAt?: number | null;
  error?: string | null;
  errorCode?: JobErrorCode | null;
  result?: string | null;
  pendingInvoke?: InvokeKind | null;
}

const PATCH_COLUMNS: Record<keyof JobPatch, string> = {
  waitReason: 'wait_reason',
  resumeMovement: 'resume_movement',
  askCount: 'ask_count',
  attempt: 'attempt',
  nextRetryAt: 'next_retry_at',
  workerId: 'worker_id',
  host: 'host',
  heartbeatAt: 'heartbeat_at',
  finishedAt: 'finished_at',
  error: 'error',
  errorCode: 'error_code',
  result: 'result',
  pendingInvoke: 'pending_invoke',
};

const TERMINAL = `('succeeded', 'failed', 'cancelled')`;

/** What a claim looks at: due retries, queued jobs, or both at once (retries first). */
type ClaimFrom = 'retry' | 'queued' | 'either';

export interface ClaimFilter {
  workerId: string;
  /** Profiles this worker serves; null serves every job. */
  profiles: readonly (string | null)[] | null;
  /** Jobs this worker declined (it cannot run them): left for other workers. */
  exclude?: readonly string[];
  /** The host the job runs on (Job.host). */
  host?: string | null;
  /**
   * The folders this host can run jobs in (a task's workspace is one of them or below one); null serves every
   * folder, as a host alone on its database does.
   */
  serves?: readonly string[] | null;
}

export function createJobsRepo(db: SqlDatabase) {
  const insert = db.prepare(
    `INSERT INTO jobs (id, task_id, created_at, updated_at, status, piece_id, profile, resume_movement, ask_count,
       continued_from_job_id, parent_job_id, pending_invoke, kind)
     VALUES (@id, @taskId, @now, @now, 'queued', @pieceId, @profile, @resumeMovement, @askCount,
       @continuedFromJobId, @parentJobId, @pendingInvoke, @kind) RETURNING *`,
  );
  const byId = db.prepare<[string], JobRow>('SELECT * FROM jobs WHERE id = ?');
  const byTask = db.prepare<[string], JobRow>('SELECT * FROM jobs WHERE task_id = ? ORDER BY created_at, rowid');
  // The task's latest job of its work: a Reflection job is never what the task is doing (nor its status).
  const latest = db.prepare<[string], JobRow>(
    `SELECT * FROM jobs WHERE task_id = ? AND kind = 'run' ORDER BY created_at DESC, rowid DESC LIMIT 1`,
  );
  const reflections = db.prepare<[string], JobRow>(
    `SELECT * FROM jobs WHERE task_id = ? AND kind = 'reflection' ORDER BY created_at, rowid`,
  );
  const children = db.prepare<[string], JobRow>(
    'SELECT * FROM jobs WHERE parent_job_id = ? ORDER BY created_at, rowid',
  );
  const openDescendants = db.prepare<[string], JobRow>(
    `WITH RECURSIVE d(id) AS (SELECT id FROM jobs WHERE parent_job_id = ?
       UNION SELECT j.id FROM jobs j JOIN d ON j.parent_job_id = d.id)
     SELECT * FROM jobs WHERE id IN (SELECT id FROM d) AND status NOT IN ${TERMINAL} ORDER BY created_at, rowid`,
  );
  const openChildren = db.prepare<[string], { n: number }>(
    `SELECT count(*) AS n FROM jobs WHERE parent_job_id = ? AND status NOT IN ${TERMINAL}`,
  );

  // The claim is one UPDATE … WHERE status = … so two workers (or processes) can never both win a job;
  // NOT EXISTS(running job of the same task) is the per-task lock. On PostgreSQL the chosen row is locked with
  // SKIP LOCKED: a job another host's transaction holds is passed over, not waited on; and the due retries and the
  // queued jobs are looked at in one statement (`either`: the first of the two picks, each walking its index; one
  // round trip), where SQLite runs the two statements.
  const dialect = dialectOf(db);
  const pick = (from: 'retry' | 'queued', filtered: boolean, served: boolean) => `(
      SELECT j.id FROM jobs j
      WHERE ${from === 'retry' ? `j.status = 'retry' AND j.next_retry_at <= @now` : `j.status = 'queued'`}
        ${filtered ? `AND coalesce(j.profile, '') IN (SELECT coalesce(value, '') FROM ${jsonValues(dialect, '@profiles')})` : ''}
        AND j.id NOT IN (SELECT value FROM ${jsonValues(dialect, '@exclude')})
        ${
          served
            ? `AND EXISTS (SELECT 1 FROM tasks t, ${jsonValues(dialect, '@serves')} WHERE t.id = j.task_id
          AND (t.workspace_path = value OR substr(t.workspace_path, 1, length(value) + 1) = value || '/'))`
            : ''
        }
        AND NOT EXISTS (SELECT 1 FROM jobs r WHERE r.task_id = j.task_id AND r.status = 'running')
      ORDER BY ${from === 'retry' ? 'j.next_retry_at, ' : ''}j.created_at, j.rowid LIMIT 1
      ${dialect === 'postgres' ? 'FOR UPDATE SKIP LOCKED' : ''})`;
  const claimSql = (from: ClaimFrom, filtered: boolean, served: boolean) => `
    UPDATE jobs SET status = 'running', worker_id = @workerId, host = @host, heartbeat_at = @now, updated_at = @now,
      attempt = attempt + 1, started_at = @now, next_retry_at = NULL
    WHERE ${
      from === 'either'
        ? `status IN ('retry', 'queued') AND id = coalesce(${pick('retry', filtered, served)}, ${pick('queued', filtered, served)})`
        : `status = '${from}' AND id = ${pick(from, filtered, served)}`
    }
    RETURNING *`;
  // Statements by the filters a claim uses, made at the first claim that uses them.
  const claims = new Map<string, Statement>();
  const claimStatement = (from: ClaimFrom, filtered: boolean, served: boolean) => {
    const key = `${from}:${filtered}:${served}`;
    let stmt = claims.get(key);
    if (!stmt) {
      stmt = db.prepare(claimSql(from, filtered, served));
      claims.set(key, stmt);
    }
    return stmt;
  };
  const heartbeat = db.prepare<[number, number, string, string]>(
    `UPDATE jobs SET heartbeat_at = ?, updated_at = ? WHERE id = ? AND status = 'running' AND worker_id = ?`,
  );
  const clearInvoke = db.prepare<[string]>('UPDATE jobs SET pending_invoke = NULL WHERE id = ?');
  const setMovement = db.prepare<[string, number, string]>(
    `UPDATE jobs SET resume_movement = ?, updated_at = ? WHERE id = ? AND status = 'running'`,
  );
  const retryDue = db.prepare<[number, number, string], JobRow>(
    `UPDATE jobs SET next_retry_at = ?, updated_at = ? WHERE id = ? AND status = 'retry' RETURNING *`,
  );
  const waitingOn = db.prepare<[string], JobRow>(
    `SELECT * FROM jobs WHERE status = 'waiting_human' AND wait_reason = ? ORDER BY created_at, rowid`,
  );
  const stale = db.prepare<[number], JobRow>(`SELECT * FROM jobs WHERE status = 'running' AND heartbeat_at < ?`);
  const setPiece = db.prepare<[string, number, string]>(
    `UPDATE jobs SET piece_id = ?, updated_at = ? WHERE id = ? AND status = 'running'`,
  );

  const patchStatements = new Map<string, Statement>();
  function patchStatement(keys: (keyof JobPatch)[]): Statement {
    const key = keys.join(',');
    let stmt = patchStatements.get(key);
    if (!stmt) {
      const sets = keys.map((k) => `${PATCH_COLUMNS[k]} = @${k}`);
      stmt = db.prepare(
        `UPDATE jobs SET status = @to, updated_at = @now${sets.map((s) => `, ${s}`).join('')}
         WHERE id = @id AND status = @from AND (worker_id = @owner OR @owner IS NULL) RETURNING *`,
      );
      patchStatements.set(key, stmt);
    }
    return stmt;
  }

  const repo = {
    insert(job: NewJob, now = Date.now()): JobRecord {
      const row = insert.get({
        id: newId('job'),
        now,
        taskId: job.taskId,
        pieceId: job.pieceId,
        profile: job.profile,
        resumeMovement: job.resumeMovement ?? null,
        askCount: job.askCount ?? 0,
        continuedFromJobId: job.continuedFromJobId ?? null,
        parentJobId: job.parentJobId ?? null,
        pendingInvoke: job.pendingInvoke,
        kind: job.kind ?? 'run',
      }) as JobRow;
      return rowToJob(row);
    },
    get(id: string): JobRecord | undefined {
      const row = byId.get(id);
      return row && rowToJob(row);
    },
    /** Every job of the task, its Reflections too, oldest first. */
    listForTask(taskId: string): JobRecord[] {
      return byTask.all(taskId).map(rowToJob);
    },
    latestForTask(taskId: string): JobRecord | undefined {
      const row = latest.get(taskId);
      return row && rowToJob(row);
    },
    /** The task's Reflection jobs, oldest first. */
    reflectionsForTask(taskId: string): JobRecord[] {
      return reflections.all(taskId).map(rowToJob);
    },
    children(parentJobId: string): JobRecord[] {
      return children.all(parentJobId).map(rowToJob);
    },
    openDescendants(jobId: string): JobRecord[] {
      return openDescendants.all(jobId).map(rowToJob);
    },
    openChildCount(jobId: string): number {
      return (openChildren.get(jobId) as { n: number }).n;
    },
    /**
     * Compare-and-set status change: applies only while the job is still in `from`; returns undefined when the job
     * has moved on (someone else won). Only jobs/lifecycle.ts calls it, after checking the job state machine.
     * Leaving waiting_human clears wait_reason; leaving retry clears next_retry_at. With `owner`, applies only while
     * that worker still holds the job (a worker presumed dead cannot overwrite the job's next life).
     */
    transition(
      id: string,
      from: JobStatus,
      to: JobStatus,
      patch: JobPatch = {},
      { owner = null, now = Date.now() }: { owner?: string | null; now?: number } = {},
    ): JobRecord | undefined {
      // The CHECKs would refuse these too; say which column is missing instead of a bare constraint failure.
      if (to === 'waiting_human' && !patch.waitReason) throw new Error(`job ${id}: waiting_human needs a waitReason`);
      if (to === 'retry' && patch.nextRetryAt == null) throw new Error(`job ${id}: retry needs a nextRetryAt`);
      const full: JobPatch = { ...patch };
      if (to !== 'waiting_human') full.waitReason = null;
      if (to !== 'retry') full.nextRetryAt = null;
      // A queued job runs on no host until one claims it.
      if (to === 'queued') full.host = null;
      if (['succeeded', 'failed', 'cancelled'].includes(to)) full.finishedAt ??= now;
      const keys = (Object.keys(full) as (keyof JobPatch)[]).filter((k) => full[k] !== undefined).sort();
      const row = patchStatement(keys).get({ ...full, id, from, to, now, owner }) as JobRow | undefined;
      return row && rowToJob(row);
    },
    /** Claims the next job this worker may run: a retry whose time has come first, then the oldest queued job. */
    claimNext(filter: ClaimFilter, now = Date.now()): JobRecord | undefined {
      const params: Record<string, unknown> = {
        workerId: filter.workerId,
        host: filter.host ?? null,
        now,
        exclude: JSON.stringify(filter.exclude ?? []),
      };
      const filtered = filter.profiles != null;
      const served = filter.serves != null;
      if (filter.profiles) params.profiles = JSON.stringify(filter.profiles);
      if (filter.serves) params.serves = JSON.stringify(filter.serves);
      const row = (
        dialect === 'postgres'
          ? claimStatement('either', filtered, served).get(params)
          : (claimStatement('retry', filtered, served).get(params) ??
            claimStatement('queued', filtered, served).get(params))
      ) as JobRow | undefined;
      return row && rowToJob(row);
    },
    /** Refreshes a running job's heartbeat; false when the job is no longer running under this worker. */
    heartbeat(id: string, workerId: string, now = Date.now()): boolean {
      return heartbeat.run(now, now, id, workerId).changes === 1;
    },
    /** The Invoke marker of this run is written: later runs of the job continue its Invoke range. */
    clearPendingInvoke(id: string): void {
      clearInvoke.run(id);
    },
    /** Records the movement a running job is in, so a crash or retry resumes there. */
    setResumeMovement(id: string, movement: string, now = Date.now()): void {
      setMovement.run(movement, now, id);
    },
    /** The piece a running job runs: the router chose it before the job started (P10.05). */
    setPiece(id: string, pieceId: string, now = Date.now()): JobRecord | undefined {
      setPiece.run(pieceId, now, id);
      return repo.get(id);
    },
    /** A job waiting to retry becomes due now (status unchanged); undefined when it is not waiting to retry. */
    retryNow(id: string, now = Date.now()): JobRecord | undefined {
      const row = retryDue.get(now, now, id);
      return row && rowToJob(row);
    },
    /** The jobs waiting for a person for `reason`, oldest first. */
    waitingOn(reason: WaitReason): JobRecord[] {
      return waitingOn.all(reason).map(rowToJob);
    },
    /** Running jobs whose heartbeat is older than `before`: their worker died. */
    staleRunning(before: number): JobRecord[] {
      return stale.all(before).map(rowToJob);
    },
  };
  return repo;
}
export type JobsRepo = ReturnType<typeof createJobsRepo>;

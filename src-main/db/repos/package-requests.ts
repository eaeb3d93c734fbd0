// Repository of package_requests: the agent's asks to install an npm or pip package; decided by CAS.

import type { PackageRequest, RequestStatus } from '../../../src-shared/entities';
import { iso, isoOrNull, newId } from '../ids';
import type { SqlDatabase } from '../sql';

interface PackageRequestRow {
  id: string;
  task_id: string;
  job_id: string;
  call_id: string;
  manager: 'npm' | 'pip';
  name: string;
  version: string | null;
  reason: string;
  status: RequestStatus;
  created_at: number;
  decided_at: number | null;
  started_at: number | null;
  deny_reason: string | null;
}

const rowToRequest = (r: PackageRequestRow): PackageRequest => ({
  id: r.id,
  taskId: r.task_id,
  jobId: r.job_id,
  callId: r.call_id,
  manager: r.manager,
  name: r.name,
  version: r.version,
  reason: r.reason,
  status: r.status,
  createdAt: iso(r.created_at),
  decidedAt: isoOrNull(r.decided_at),
  denyReason: r.deny_reason,
});

export interface NewPackageRequest {
  callId: string;
  manager: 'npm' | 'pip';
  name: string;
  version: string | null;
  reason: string;
}

export function createPackageRequestsRepo(db: SqlDatabase) {
  const insert = db.prepare(
    `INSERT INTO package_requests (id, task_id, job_id, call_id, manager, name, version, reason, status, created_at)
     VALUES (@id, @taskId, @jobId, @callId, @manager, @name, @version, @reason, 'pending', @now) RETURNING *`,
  );
  const byId = db.prepare<[string], PackageRequestRow>('SELECT * FROM package_requests WHERE id = ?');
  const byTask = db.prepare<[string], PackageRequestRow>(
    'SELECT * FROM package_requests WHERE task_id = ? ORDER BY created_at, rowid',
  );
  const byJob = db.prepare<[string], PackageRequestRow>(
    'SELECT * FROM package_requests WHERE job_id = ? ORDER BY created_at, rowid',
  );
  const decide = db.prepare(
    `UPDATE package_requests SET status = @status, decided_at = @now, deny_reason = @denyReason
     WHERE id = @id AND status = 'pending' RETURNING *`,
  );
  const markStarted = db.prepare(
    `UPDATE package_requests SET started_at = @now WHERE id = @id AND status = 'approved' AND started_at IS NULL`,
  );
  const pendingCount = db.prepare<[string], { n: number }>(
    `SELECT count(*) AS n FROM package_requests WHERE job_id = ? AND status = 'pending'`,
  );

  return {
    insert(taskId: string, jobId: string, request: NewPackageRequest, now = Date.now()): PackageRequest {
      const row = insert.get({ id: newId('preq'), taskId, jobId, ...request, now }) as PackageRequestRow;
      return rowToRequest(row);
    },
    get(id: string): PackageRequest | undefined {
      const row = byId.get(id);
      return row && rowToRequest(row);
    },
    listForTask(taskId: string): PackageRequest[] {
      return byTask.all(taskId).map(rowToRequest);
    },
    listForJob(jobId: string): PackageRequest[] {
      return byJob.all(jobId).map(rowToRequest);
    },
    /** Compare-and-set pending → approved/denied; undefined when it was already decided. */
    decide(
      id: string,
      status: 'approved' | 'denied',
      now = Date.now(),
      denyReason: string | null = null,
    ): PackageRequest | undefined {
      const row = decide.get({ id, status, now, denyReason }) as PackageRequestRow | undefined;
      return row && rowToRequest(row);
    },
    /**
     * Records that the approved call starts now, before it runs (committed on return): true for the one caller that
     * may run it; false when it started before (a run a restart interrupted) or is not approved.
     */
    markStarted(id: string, now = Date.now()): boolean {
      return markStarted.run({ id, now }).changes === 1;
    },
    pendingCount(jobId: string): number {
      return (pendingCount.get(jobId) as { n: number }).n;
    },
  };
}
export type PackageRequestsRepo = ReturnType<typeof createPackageRequestsRepo>;

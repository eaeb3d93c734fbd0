// Repository of tool_requests: approval cards for tool calls the policy does not allow outright; decided by CAS.

import type { RequestStatus, ToolRequest, ToolRequestDisplay } from '../../../src-shared/entities';
import type { GrantOptions } from '../../../src-shared/grants';
import { iso, isoOrNull, newId } from '../ids';
import type { SqlDatabase } from '../sql';

interface ToolRequestRow {
  id: string;
  task_id: string;
  job_id: string;
  call_id: string;
  tool: string;
  args_json: string;
  summary: string;
  status: RequestStatus;
  scope: 'once' | 'task' | null;
  created_at: number;
  decided_at: number | null;
  started_at: number | null;
  deny_reason: string | null;
  display_json: string | null;
  grant_options_json: string | null;
}

/** A tool request as the engine sees it: the public record plus the call's arguments. */
export interface ToolRequestRecord extends ToolRequest {
  args: unknown;
}

const rowToRequest = (r: ToolRequestRow): ToolRequestRecord => ({
  id: r.id,
  taskId: r.task_id,
  jobId: r.job_id,
  callId: r.call_id,
  tool: r.tool,
  summary: r.summary,
  status: r.status,
  scope: r.scope,
  createdAt: iso(r.created_at),
  decidedAt: isoOrNull(r.decided_at),
  denyReason: r.deny_reason,
  ...(r.display_json === null ? {} : { display: JSON.parse(r.display_json) as ToolRequestDisplay }),
  ...(r.grant_options_json === null ? {} : { grantOptions: JSON.parse(r.grant_options_json) as GrantOptions }),
  args: JSON.parse(r.args_json),
});

export const toToolRequest = ({ args: _args, ...request }: ToolRequestRecord): ToolRequest => request;

export interface NewToolRequest {
  callId: string;
  tool: string;
  args: unknown;
  summary: string;
  display?: ToolRequestDisplay;
  /** What "for this task" may grant of the call (tools/grants.ts), worked out where the tool is known. */
  grantOptions?: GrantOptions;
}

export function createToolRequestsRepo(db: SqlDatabase) {
  const insert = db.prepare(
    `INSERT INTO tool_requests
       (id, task_id, job_id, call_id, tool, args_json, summary, display_json, grant_options_json, status, created_at)
     VALUES (@id, @taskId, @jobId, @callId, @tool, @argsJson, @summary, @displayJson, @grantOptionsJson, 'pending', @now)
     RETURNING *`,
  );
  const byId = db.prepare<[string], ToolRequestRow>('SELECT * FROM tool_requests WHERE id = ?');
  const byTask = db.prepare<[string], ToolRequestRow>(
    'SELECT * FROM tool_requests WHERE task_id = ? ORDER BY created_at, rowid',
  );
  const byJob = db.prepare<[string], ToolRequestRow>(
    'SELECT * FROM tool_requests WHERE job_id = ? ORDER BY created_at, rowid',
  );
  const decide = db.prepare(
    `UPDATE tool_requests SET status = @status, scope = @scope, decided_at = @now, deny_reason = @denyReason
     WHERE id = @id AND status = 'pending' RETURNING *`,
  );
  const markStarted = db.prepare(
    `UPDATE tool_requests SET started_at = @now WHERE id = @id AND status = 'approved' AND started_at IS NULL`,
  );
  const pendingCount = db.prepare<[string], { n: number }>(
    `SELECT count(*) AS n FROM tool_requests WHERE job_id = ? AND status = 'pending'`,
  );

  return {
    insert(taskId: string, jobId: string, request: NewToolRequest, now = Date.now()): ToolRequestRecord {
      const row = insert.get({
        id: newId('treq'),
        taskId,
        jobId,
        callId: request.callId,
        tool: request.tool,
        argsJson: JSON.stringify(request.args ?? null),
        summary: request.summary,
        displayJson: request.display ? JSON.stringify(request.display) : null,
        grantOptionsJson: request.grantOptions ? JSON.stringify(request.grantOptions) : null,
        now,
      }) as ToolRequestRow;
      return rowToRequest(row);
    },
    get(id: string): ToolRequestRecord | undefined {
      const row = byId.get(id);
      return row && rowToRequest(row);
    },
    listForTask(taskId: string): ToolRequestRecord[] {
      return byTask.all(taskId).map(rowToRequest);
    },
    listForJob(jobId: string): ToolRequestRecord[] {
      return byJob.all(jobId).map(rowToRequest);
    },
    /** Compare-and-set pending → approved/denied (with the person's reason, if any); undefined when already decided. */
    decide(
      id: string,
      status: 'approved' | 'denied',
      scope: 'once' | 'task' | null,
      now = Date.now(),
      denyReason: string | null = null,
    ) {
      const row = decide.get({ id, status, scope, now, denyReason }) as ToolRequestRow | undefined;
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
export type ToolRequestsRepo = ReturnType<typeof createToolRequestsRepo>;

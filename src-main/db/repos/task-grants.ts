// Repository of task_grants: what a person approved "for this task" on a card (tools/grants.ts says what each covers),
// inserted with the decision that made it and revoked by compare-and-set.

import type { GrantKind, GrantScope, GrantTargetKind, TaskGrant } from '../../../src-shared/grants';
import { iso, isoOrNull, newId } from '../ids';
import type { SqlDatabase } from '../sql';

interface TaskGrantRow {
  id: string;
  task_id: string;
  request_id: string;
  tool: string;
  kind: GrantKind;
  target_kind: GrantTargetKind | null;
  target: string | null;
  rule: string | null;
  created_at: number;
  revoked_at: number | null;
}

const rowToGrant = (r: TaskGrantRow): TaskGrant => ({
  id: r.id,
  taskId: r.task_id,
  requestId: r.request_id,
  tool: r.tool,
  kind: r.kind,
  target: r.target_kind === null || r.target === null ? null : { kind: r.target_kind, value: r.target },
  rule: r.rule,
  createdAt: iso(r.created_at),
  revokedAt: isoOrNull(r.revoked_at),
});

export function createTaskGrantsRepo(db: SqlDatabase) {
  const insert = db.prepare(
    `INSERT INTO task_grants (id, task_id, request_id, tool, kind, target_kind, target, rule, created_at)
     VALUES (@id, @taskId, @requestId, @tool, @kind, @targetKind, @target, @rule, @now) RETURNING *`,
  );
  const byTask = db.prepare<[string], TaskGrantRow>(
    'SELECT * FROM task_grants WHERE task_id = ? ORDER BY created_at, rowid',
  );
  const activeByTask = db.prepare<[string], TaskGrantRow>(
    'SELECT * FROM task_grants WHERE task_id = ? AND revoked_at IS NULL ORDER BY created_at, rowid',
  );
  const byId = db.prepare<[string], TaskGrantRow>('SELECT * FROM task_grants WHERE id = ?');
  const revoke = db.prepare(
    'UPDATE task_grants SET revoked_at = @now WHERE id = @id AND revoked_at IS NULL RETURNING *',
  );

  return {
    insert(taskId: string, requestId: string, grant: GrantScope, now = Date.now()): TaskGrant {
      const row = insert.get({
        id: newId('grant'),
        taskId,
        requestId,
        tool: grant.tool,
        kind: grant.kind,
        targetKind: grant.target?.kind ?? null,
        target: grant.target?.value ?? null,
        rule: grant.rule,
        now,
      }) as TaskGrantRow;
      return rowToGrant(row);
    },
    get(id: string): TaskGrant | undefined {
      const row = byId.get(id);
      return row && rowToGrant(row);
    },
    /** Every grant of the task, revoked ones included, oldest first. */
    listForTask(taskId: string): TaskGrant[] {
      return byTask.all(taskId).map(rowToGrant);
    },
    /** The grants that cover calls now: not revoked. */
    activeForTask(taskId: string): TaskGrant[] {
      return activeByTask.all(taskId).map(rowToGrant);
    },
    /** Compare-and-set: revoked now; undefined when it already was. */
    revoke(id: string, now = Date.now()): TaskGrant | undefined {
      const row = revoke.get({ id, now }) as TaskGrantRow | undefined;
      return row && rowToGrant(row);
    },
  };
}
export type TaskGrantsRepo = ReturnType<typeof createTaskGrantsRepo>;

// Repository of callers (the bridge's tokens besides the owner's) and caller_actions (what each caller's token wrote):
// a caller is found by the SHA-256 of its token, never by the token, and revoked by compare-and-set.

import { type Caller, CallerSpaces } from '../../../src-shared/contract';
import { newId } from '../ids';
import type { SqlDatabase } from '../sql';

interface CallerRow {
  id: string;
  name: string;
  role: Caller['role'];
  spaces: string;
  token_hash: string;
  created_at: number;
  revoked_at: number | null;
}

const rowToCaller = (r: CallerRow): Caller => ({
  id: r.id,
  name: r.name,
  role: r.role,
  spaces: CallerSpaces.parse(JSON.parse(r.spaces)),
});

export function createCallersRepo(db: SqlDatabase) {
  const insert = db.prepare(
    `INSERT INTO callers (id, name, role, spaces, token_hash, created_at)
     VALUES (@id, @name, @role, @spaces, @tokenHash, @now) RETURNING *`,
  );
  const active = db.prepare<[], CallerRow>('SELECT * FROM callers WHERE revoked_at IS NULL ORDER BY created_at, rowid');
  const activeById = db.prepare<[string], CallerRow>('SELECT * FROM callers WHERE id = ? AND revoked_at IS NULL');
  const activeByHash = db.prepare<[string], CallerRow>(
    'SELECT * FROM callers WHERE token_hash = ? AND revoked_at IS NULL',
  );
  const revoke = db.prepare<{ id: string; now: number }, CallerRow>(
    'UPDATE callers SET revoked_at = @now WHERE id = @id AND revoked_at IS NULL RETURNING *',
  );
  const act = db.prepare(
    'INSERT INTO caller_actions (caller_id, operation, task_id, at) VALUES (@callerId, @operation, @taskId, @now)',
  );
  const actionsOf = db.prepare<[string], { operation: string; task_id: string | null; at: number }>(
    'SELECT operation, task_id, at FROM caller_actions WHERE caller_id = ? ORDER BY id',
  );

  return {
    insert(caller: Omit<Caller, 'id'>, tokenHash: string, now = Date.now()): Caller {
      const row = insert.get({
        id: newId('caller'),
        name: caller.name,
        role: caller.role,
        spaces: JSON.stringify(caller.spaces),
        tokenHash,
        now,
      }) as CallerRow;
      return rowToCaller(row);
    },
    list(): Caller[] {
      return active.all().map(rowToCaller);
    },
    /** A caller whose token is not revoked. */
    get(id: string): Caller | undefined {
      const row = activeById.get(id);
      return row && rowToCaller(row);
    },
    byTokenHash(tokenHash: string): Caller | undefined {
      const row = activeByHash.get(tokenHash);
      return row && rowToCaller(row);
    },
    /** The caller as it was; undefined when there is no such caller or it was revoked already. */
    revoke(id: string, now = Date.now()): Caller | undefined {
      const row = revoke.get({ id, now });
      return row && rowToCaller(row);
    },
    /** The audit: a write a caller's token made (the operation, and the task it wrote to or made). */
    recordAction(callerId: string, operation: string, taskId: string | null, now = Date.now()): void {
      act.run({ callerId, operation, taskId, now });
    },
    actions(callerId: string): { operation: string; taskId: string | null; at: number }[] {
      return actionsOf.all(callerId).map((r) => ({ operation: r.operation, taskId: r.task_id, at: r.at }));
    },
  };
}
export type CallersRepo = ReturnType<typeof createCallersRepo>;

const repos = new WeakMap<SqlDatabase, CallersRepo>();
/** The connection's callers repository, its statements prepared once (kept beside the Store, which it does not need). */
export function callersRepo(db: SqlDatabase): CallersRepo {
  let repo = repos.get(db);
  if (!repo) {
    repo = createCallersRepo(db);
    repos.set(db, repo);
  }
  return repo;
}

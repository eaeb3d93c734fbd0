// Repository of lessons (P2.08): inserted `proposed` by a Reflection job, decided and edited by a person with
// compare-and-set on their status, and read back for a job's instruction (approved ones in scope, most relevant first)
// whose use is then counted.

import type { Lesson, LessonScope, LessonStatus } from '../../../src-shared/lessons';
import { iso, isoOrNull, newId } from '../ids';
import { dialectOf, type SqlDatabase } from '../sql';

interface LessonRow {
  id: string;
  text: string;
  evidence: string;
  status: LessonStatus;
  scope: LessonScope;
  workspace_path: string;
  piece_id: string;
  source_task_id: string | null;
  source_job_id: string | null;
  created_at: number;
  decided_at: number | null;
  last_used_at: number | null;
  use_count: number;
  replaces: string | null;
}

/**
 * A lesson as main keeps it; `stale` is worked out against the settings and `contradictedBy` against the other
 * lessons when it is shown (toLesson).
 */
export type LessonRecord = Omit<Lesson, 'stale' | 'contradictedBy'>;

const rowToLesson = (r: LessonRow): LessonRecord => ({
  id: r.id,
  text: r.text,
  evidence: r.evidence,
  status: r.status,
  scope: r.scope,
  workspacePath: r.workspace_path,
  pieceId: r.piece_id,
  sourceTaskId: r.source_task_id,
  sourceJobId: r.source_job_id,
  createdAt: iso(r.created_at),
  decidedAt: isoOrNull(r.decided_at),
  lastUsedAt: isoOrNull(r.last_used_at),
  useCount: r.use_count,
  replaces: r.replaces,
});

export interface NewLesson {
  text: string;
  evidence: string;
  scope: LessonScope;
  workspacePath: string;
  pieceId: string;
  sourceTaskId: string | null;
  sourceJobId: string | null;
  /** The earlier lesson this one contradicts. */
  replaces?: string | null;
}

export interface LessonPatch {
  text?: string;
  evidence?: string;
  scope?: LessonScope;
}

/** Where a job runs: what decides which lessons are in scope. */
export interface LessonPlace {
  workspacePath: string;
  pieceId: string;
}

export function createLessonsRepo(db: SqlDatabase) {
  const insert = db.prepare(
    `INSERT INTO lessons (id, text, evidence, status, scope, workspace_path, piece_id, source_task_id, source_job_id,
       created_at, replaces)
     VALUES (@id, @text, @evidence, 'proposed', @scope, @workspacePath, @pieceId, @sourceTaskId, @sourceJobId, @now,
       @replaces)
     RETURNING *`,
  );
  // Approved lessons contradicted by a later approved one, with that later one (newest first: the first per lesson).
  const contradicted = db.prepare<[], { earlier: string; id: string; text: string }>(
    `SELECT e.id AS earlier, l.id AS id, l.text AS text FROM lessons l JOIN lessons e ON l.replaces = e.id
     WHERE l.status = 'approved' AND e.status = 'approved' ORDER BY l.created_at DESC, l.rowid DESC`,
  );
  const byId = db.prepare<[string], LessonRow>('SELECT * FROM lessons WHERE id = ?');
  const byTask = db.prepare<[string], LessonRow>(
    'SELECT * FROM lessons WHERE source_task_id = ? ORDER BY created_at, rowid',
  );
  const all = db.prepare<[], LessonRow>('SELECT * FROM lessons ORDER BY created_at DESC, rowid DESC');
  const withStatus = db.prepare<[string], LessonRow>(
    'SELECT * FROM lessons WHERE status = ? ORDER BY created_at DESC, rowid DESC',
  );
  // Most relevant first: the narrowest scope that holds (this workspace, then this piece, then everywhere), then the
  // lesson used or approved most recently, then the one used most. A lesson a later approved one contradicts is left
  // out (two rules saying opposite things help no job); Settings offers to retire it.
  const inScope = db.prepare<[{ workspacePath: string; pieceId: string }], LessonRow>(
    `SELECT * FROM lessons
     WHERE status = 'approved'
       AND NOT EXISTS (SELECT 1 FROM lessons later WHERE later.replaces = lessons.id AND later.status = 'approved')
       AND (scope = 'everywhere'
         OR (scope = 'workspace' AND workspace_path = @workspacePath)
         OR (scope = 'piece' AND piece_id = @pieceId))
     ORDER BY CASE scope WHEN 'workspace' THEN 0 WHEN 'piece' THEN 1 ELSE 2 END,
       ${dialectOf(db) === 'sqlite' ? 'max' : 'greatest'}(coalesce(last_used_at, 0), coalesce(decided_at, 0)) DESC, use_count DESC, created_at DESC, rowid`,
  );
  const used = db.prepare<[number, string]>(
    `UPDATE lessons SET last_used_at = ?, use_count = use_count + 1 WHERE id = ? AND status = 'approved'`,
  );

  return {
    insert(lesson: NewLesson, now = Date.now()): LessonRecord {
      return rowToLesson(
        insert.get({ ...lesson, replaces: lesson.replaces ?? null, id: newId('lesson'), now }) as LessonRow,
      );
    },
    get(id: string): LessonRecord | undefined {
      const row = byId.get(id);
      return row && rowToLesson(row);
    },
    listForTask(taskId: string): LessonRecord[] {
      return byTask.all(taskId).map(rowToLesson);
    },
    list(status?: LessonStatus): LessonRecord[] {
      return (status ? withStatus.all(status) : all.all()).map(rowToLesson);
    },
    /** Each approved lesson a later approved lesson contradicts, with that later lesson (the newest of them). */
    contradictions(): Map<string, { id: string; text: string }> {
      const found = new Map<string, { id: string; text: string }>();
      for (const { earlier, id, text } of contradicted.all()) if (!found.has(earlier)) found.set(earlier, { id, text });
      return found;
    },
    /** The approved lessons that apply at `place`, most relevant first. */
    approvedFor(place: LessonPlace): LessonRecord[] {
      return inScope.all(place).map(rowToLesson);
    },
    /**
     * Compare-and-set: the lesson goes from `from` to `to` with the edits in `patch`; undefined when it is no longer
     * in `from` (or does not exist).
     */
    decide(id: string, from: LessonStatus, to: LessonStatus, patch: LessonPatch = {}, now = Date.now()) {
      const sets = ['status = @to', 'decided_at = @now'];
      if (patch.text !== undefined) sets.push('text = @text');
      if (patch.evidence !== undefined) sets.push('evidence = @evidence');
      if (patch.scope !== undefined) sets.push('scope = @scope');
      const row = db
        .prepare(`UPDATE lessons SET ${sets.join(', ')} WHERE id = @id AND status = @from RETURNING *`)
        .get({ ...patch, id, from, to, now }) as LessonRow | undefined;
      return row && rowToLesson(row);
    },
    /** Edits a lesson while it is still in `status`; its status and decision time stay. */
    edit(id: string, status: LessonStatus, patch: LessonPatch): LessonRecord | undefined {
      const sets: string[] = [];
      if (patch.text !== undefined) sets.push('text = @text');
      if (patch.evidence !== undefined) sets.push('evidence = @evidence');
      if (patch.scope !== undefined) sets.push('scope = @scope');
      if (sets.length === 0) return repoGet(id);
      const row = db
        .prepare(`UPDATE lessons SET ${sets.join(', ')} WHERE id = @id AND status = @status RETURNING *`)
        .get({ ...patch, id, status }) as LessonRow | undefined;
      return row && rowToLesson(row);
    },
    /** The lessons a job's instruction got were used now. */
    markUsed(ids: readonly string[], now = Date.now()): void {
      for (const id of ids) used.run(now, id);
    },
  };

  function repoGet(id: string): LessonRecord | undefined {
    const row = byId.get(id);
    return row && rowToLesson(row);
  }
}
export type LessonsRepo = ReturnType<typeof createLessonsRepo>;

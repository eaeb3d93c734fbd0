// The task list a page at a time (issue 28 point 3): newest first, after a position (created_at, rowid) of the page
// before, filtered by the latest job's status, the archive, a search and the spaces. Each filter walks an index of migration 21 in
// list order and stops at the page's end, so a page costs its own rows, not every task; a task made later sorts
// before every position already handed out, so it never shifts or repeats a later page.
import type { Statement } from 'better-sqlite3';
import type { JobStatus, Task } from '../../../src-shared/entities';
import { dialectOf, jsonValues, type SqlDatabase } from '../sql';
import { rowToTask, type TaskRow } from './tasks';

/** Where a page ended: the last task's created_at and rowid. */
export interface TaskPosition {
  createdAt: number;
  row: number;
}

export interface TaskPageQuery {
  limit: number;
  after?: TaskPosition;
  /** The latest job's status is one of these (a task without a job has none and is left out). */
  statuses?: readonly JobStatus[];
  /** true: archived tasks only; false: those not archived; absent: both. */
  archived?: boolean;
  /** Words in the title or the instruction, ignoring ASCII case. */
  search?: string;
  /** The tasks of these spaces only (an ephemeral workspace's task has none and is left out). */
  spaces?: readonly string[];
}

export interface TaskPage {
  tasks: Task[];
  /** The last task's position when more tasks follow it; null on the last page. */
  next: TaskPosition | null;
}

type Shape = `${boolean}:${boolean}:${string}:${boolean}:${boolean}`;

/** `%` and `_` of the search are themselves, not LIKE's wildcards. */
const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function paramsOf(q: TaskPageQuery): Record<string, unknown> {
  // One more than the page: whether it is there says whether a next page exists.
  const params: Record<string, unknown> = { limit: q.limit + 1 };
  if (q.after) Object.assign(params, { afterAt: q.after.createdAt, afterRow: q.after.row });
  if (q.statuses) params.statuses = JSON.stringify(q.statuses);
  if (q.spaces) params.spaces = JSON.stringify(q.spaces);
  if (q.search !== undefined) params.search = likePattern(q.search);
  return params;
}

export function createTaskPagesRepo(db: SqlDatabase) {
  const dialect = dialectOf(db);
  const like = dialect === 'sqlite' ? 'LIKE' : 'ILIKE';
  // One statement per combination of filters, prepared once on first use.
  const statements = new Map<Shape, Statement<Record<string, unknown>, TaskRow & { row: number }>>();

  function statement(q: TaskPageQuery) {
    const shape: Shape = `${q.after !== undefined}:${q.statuses !== undefined}:${String(q.archived)}:${q.search !== undefined}:${q.spaces !== undefined}`;
    let found = statements.get(shape);
    if (!found) {
      const where: string[] = [];
      // The archive filter is written as the partial indexes' own conditions, so the planner can walk them.
      if (q.archived === true) where.push('archived_at IS NOT NULL');
      if (q.archived === false) where.push('archived_at IS NULL');
      if (q.statuses !== undefined)
        where.push(`latest_status IN (SELECT value FROM ${jsonValues(dialect, '@statuses')})`);
      if (q.spaces !== undefined) where.push(`space_id IN (SELECT value FROM ${jsonValues(dialect, '@spaces')})`);
      if (q.after !== undefined) where.push('(created_at, rowid) < (@afterAt, @afterRow)');
      if (q.search !== undefined)
        // SQLite's LIKE ignores the case of ASCII letters; PostgreSQL's ILIKE is the same search there.
        where.push(`(title ${like} @search ESCAPE '\\' OR instruction ${like} @search ESCAPE '\\')`);
      const sql = `SELECT *, rowid AS row FROM tasks ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY created_at DESC, rowid DESC LIMIT @limit`;
      found = db.prepare<Record<string, unknown>, TaskRow & { row: number }>(sql);
      statements.set(shape, found);
    }
    return found;
  }

  return {
    page(q: TaskPageQuery): TaskPage {
      const rows = statement(q).all(paramsOf(q));
      const more = rows.length > q.limit;
      const kept = more ? rows.slice(0, q.limit) : rows;
      const last = kept.at(-1);
      return {
        tasks: kept.map(rowToTask),
        next: more && last ? { createdAt: last.created_at, row: last.row } : null,
      };
    },
    /** The SQLite plan of a page's query, one line per step (for the test that the first page is an index walk). */
    plan(q: TaskPageQuery): string[] {
      const sql = statement(q).source;
      return db
        .prepare<Record<string, unknown>, { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
        .all(paramsOf(q))
        .map((r) => r.detail);
    },
  };
}
export type TaskPagesRepo = ReturnType<typeof createTaskPagesRepo>;

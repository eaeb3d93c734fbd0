// Repository of the tasks table; Task.status is the latest job's status. Deleting a task takes the rows of every
// table that hangs on it with it (removeTrees).

import type { JobStatus, Task } from '../../../src-shared/entities';
import { iso } from '../ids';
import { dialectOf, jsonValues, type SqlDatabase } from '../sql';

export interface TaskRow {
  id: string;
  title: string;
  instruction: string;
  piece_id: string;
  workspace_path: string;
  workspace_kind: 'persistent' | 'ephemeral';
  profile: string | null;
  parent_task_id: string | null;
  created_at: number;
  archived_at: number | null;
  forked_from_task_id: string | null;
  forked_at_send: number | null;
  /** The latest job's status, kept by migration 21's triggers on jobs. */
  latest_status: JobStatus | null;
}

export interface NewTask {
  id: string;
  title: string;
  instruction: string;
  pieceId: string;
  workspacePath: string;
  workspaceKind: 'persistent' | 'ephemeral';
  profile: string | null;
  parentTaskId: string | null;
  createdAt: number;
  /** The space of a persistent workspace; none for an ephemeral one (and for tasks made without spaces). */
  spaceId?: string | null;
  /** How the piece was chosen (default 'given'); 'route': the LLM router picks it before the first job runs. */
  pieceChoice?: PieceChoice;
  /** A fork's origin: the task and the Send whose conversation before it the fork holds. */
  forkedFrom?: { taskId: string; send: number };
}

export type PieceChoice = 'given' | 'pinned' | 'default' | 'route' | 'routed';

export const rowToTask = (r: TaskRow): Task => ({
  id: r.id,
  title: r.title,
  instruction: r.instruction,
  pieceId: r.piece_id,
  workspacePath: r.workspace_path,
  profile: r.profile,
  parentTaskId: r.parent_task_id,
  createdAt: iso(r.created_at),
  archivedAt: r.archived_at === null ? null : iso(r.archived_at),
  status: r.latest_status,
  forkedFrom:
    r.forked_from_task_id === null || r.forked_at_send === null
      ? null
      : { taskId: r.forked_from_task_id, send: r.forked_at_send },
});

export function createTasksRepo(db: SqlDatabase) {
  const insert = db.prepare(
    `INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, profile, parent_task_id, created_at, space_id, piece_choice, forked_from_task_id, forked_at_send)
     VALUES (@id, @title, @instruction, @pieceId, @workspacePath, @workspaceKind, @profile, @parentTaskId, @createdAt, @spaceId, @pieceChoice, @forkedFromTaskId, @forkedAtSend)`,
  );
  const byId = db.prepare<[string], TaskRow>('SELECT * FROM tasks WHERE id = ?');
  const all = db.prepare<[], TaskRow>('SELECT * FROM tasks ORDER BY created_at DESC, rowid DESC');
  const withStatus = db.prepare<[string], TaskRow>(
    `SELECT * FROM tasks WHERE latest_status IN (SELECT value FROM ${jsonValues(dialectOf(db), '?')})
     ORDER BY created_at DESC, rowid DESC`,
  );
  const inWorkspace = db.prepare<[string, JobStatus], { id: string }>(
    "SELECT id FROM tasks WHERE workspace_path = ? AND latest_status = ? AND workspace_kind = 'persistent' ORDER BY created_at, rowid",
  );
  const anyInWorkspace = db.prepare<[string], { n: number }>(
    'SELECT count(*) AS n FROM (SELECT 1 FROM tasks WHERE workspace_path = ? LIMIT 1) AS one',
  );
  const setPiece = db.prepare<[string, string]>('UPDATE tasks SET piece_id = ? WHERE id = ?');
  const space = db.prepare<[string], { space_id: string | null }>('SELECT space_id FROM tasks WHERE id = ?');
  const choice = db.prepare<[string], { piece_choice: PieceChoice }>('SELECT piece_choice FROM tasks WHERE id = ?');
  const setChoice = db.prepare<[string, PieceChoice, string]>(
    'UPDATE tasks SET piece_id = ?, piece_choice = ? WHERE id = ?',
  );
  const kind = db.prepare<[string], { workspace_kind: 'persistent' | 'ephemeral' }>(
    'SELECT workspace_kind FROM tasks WHERE id = ?',
  );
  const rename = db.prepare<[string, string]>('UPDATE tasks SET title = ? WHERE id = ?');
  const archive = db.prepare<[number | null, string]>('UPDATE tasks SET archived_at = ? WHERE id = ?');
  const tree = db.prepare<[string], { id: string }>(
    `WITH RECURSIVE tree(id, depth) AS (
       SELECT id, 0 FROM tasks WHERE id = ?
       UNION ALL SELECT t.id, tree.depth + 1 FROM tasks t JOIN tree ON t.parent_task_id = tree.id
     ) SELECT id FROM tree ORDER BY depth, id`,
  );
  const ancestry = db.prepare<[string], { root: string; depth: number }>(
    `WITH RECURSIVE up(id, parent, depth) AS (
       SELECT id, parent_task_id, 0 FROM tasks WHERE id = ?
       UNION ALL SELECT t.id, t.parent_task_id, up.depth + 1 FROM tasks t JOIN up ON t.id = up.parent WHERE up.depth < 1000
     ) SELECT id AS root, depth FROM up WHERE parent IS NULL`,
  );
  // Walked through the jobs (a subtask's first job names its creator's job), whose indexes make it a walk of the tree
  // alone; tasks.parent_task_id has no index, and an automatic one is built over every task at each call.
  const subtasks = db.prepare<[string], { n: number }>(
    `WITH RECURSIVE tree(task_id) AS (
       SELECT ?
       UNION SELECT c.task_id FROM tree JOIN jobs p ON p.task_id = tree.task_id JOIN jobs c ON c.parent_job_id = p.id
     ) SELECT count(*) - 1 AS n FROM tree`,
  );
  // A list of task ids is bound as one JSON array. Children before parents, requests and comments before their jobs,
  // so no foreign key is left pointing at a deleted row at the end of a statement.
  const inTrees = `IN (SELECT value FROM ${jsonValues(dialectOf(db), '?')})`;
  const removals = [
    `DELETE FROM log_entries WHERE task_id ${inTrees}`,
    `DELETE FROM transcript_chunks WHERE task_id ${inTrees}`,
    `DELETE FROM transcript_points WHERE task_id ${inTrees}`,
    `DELETE FROM tool_requests WHERE task_id ${inTrees}`,
    `DELETE FROM package_requests WHERE task_id ${inTrees}`,
    `DELETE FROM comments WHERE task_id ${inTrees}`,
    `DELETE FROM jobs WHERE task_id ${inTrees}`,
    `DELETE FROM events WHERE task_id ${inTrees}`,
    // The schedule outlives the task it made last.
    `UPDATE schedule_runs SET last_task_id = NULL WHERE last_task_id ${inTrees}`,
    `DELETE FROM tasks WHERE id ${inTrees}`,
  ].map((sql) => db.prepare<[string]>(sql));

  const idsAfter = db.prepare<[string, number], { id: string }>(
    'SELECT id FROM tasks WHERE id > ? ORDER BY id LIMIT ?',
  );
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM tasks');

  return {
    insert(task: NewTask): void {
      const { forkedFrom, ...rest } = task;
      insert.run({
        ...rest,
        spaceId: task.spaceId ?? null,
        pieceChoice: task.pieceChoice ?? 'given',
        forkedFromTaskId: forkedFrom?.taskId ?? null,
        forkedAtSend: forkedFrom?.send ?? null,
      });
    },
    get(id: string): Task | undefined {
      const row = byId.get(id);
      return row && rowToTask(row);
    },
    /** Every task, newest first: for tests and small tools; a person's list and the bridge page (task-pages.ts). */
    list(): Task[] {
      return all.all().map(rowToTask);
    },
    /** The tasks whose latest job has one of the statuses, newest first; read through an index, not every task. */
    withLatestStatus(statuses: readonly JobStatus[]): Task[] {
      return withStatus.all(JSON.stringify(statuses)).map(rowToTask);
    },
    /** The tasks of the folder (a persistent workspace) whose latest job has the status, oldest first (by index). */
    idsInWorkspace(workspacePath: string, latestStatus: JobStatus): string[] {
      return inWorkspace.all(workspacePath, latestStatus).map((r) => r.id);
    },
    /** Whether any task ever worked in the folder (an index lookup). */
    usedWorkspace(workspacePath: string): boolean {
      return (anyInWorkspace.get(workspacePath)?.n ?? 0) > 0;
    },
    setPiece(id: string, pieceId: string): void {
      setPiece.run(pieceId, id);
    },
    pieceChoice(id: string): PieceChoice | undefined {
      return choice.get(id)?.piece_choice;
    },
    /** The router's pick ('routed'), or the default it fell back to ('default'). */
    setChosenPiece(id: string, pieceId: string, how: 'routed' | 'default'): void {
      setChoice.run(pieceId, how, id);
    },
    spaceId(id: string): string | null {
      return space.get(id)?.space_id ?? null;
    },
    workspaceKind(id: string): 'persistent' | 'ephemeral' | undefined {
      return kind.get(id)?.workspace_kind;
    },
    rename(id: string, title: string): boolean {
      return rename.run(title, id).changes === 1;
    },
    /** `at` null brings it back from the archive. */
    setArchived(id: string, at: number | null): boolean {
      return archive.run(at, id).changes === 1;
    },
    /** The task and its subtasks at any depth, the task first, parents before children; empty when it is unknown. */
    tree(id: string): string[] {
      return tree.all(id).map((r) => r.id);
    },
    /** The task at the top of the task's tree (itself when it has no parent) and how far below it the task is. */
    ancestry(id: string): { rootId: string; depth: number } | undefined {
      const row = ancestry.get(id);
      return row && { rootId: row.root, depth: row.depth };
    },
    /** How many subtasks the tree under a task holds, at every depth. */
    subtaskCount(id: string): number {
      return subtasks.get(id)?.n ?? 0;
    },
    /** Deletes the tasks and every row of theirs in other tables; call it inside a transaction. */
    removeTrees(ids: readonly string[]): void {
      const list = JSON.stringify(ids);
      for (const statement of removals) statement.run(list);
    },
    /** Up to `limit` task ids after `id` in id order: a walk over every task a page at a time. */
    idsAfter(id: string, limit: number): string[] {
      return idsAfter.all(id, limit).map((r) => r.id);
    },
    count(): number {
      return count.get()?.n ?? 0;
    },
  };
}
export type TasksRepo = ReturnType<typeof createTasksRepo>;

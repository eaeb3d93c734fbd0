// The task list's logic: the rows it draws (search, archived tasks, subtasks under their parent) and moving through
// the tasks that wait for the user from the keyboard (the next-waiting-task shortcut).
import type { Task } from '../../../src-shared/entities';

/**
 * The next task after the selected one, in list order (newest first) and wrapping round, whose job waits for the
 * user; from the top when nothing is selected. Null when no other task waits.
 */
export function nextWaitingTaskId(tasks: readonly Task[], selectedId: string | null): string | null {
  const start = tasks.findIndex((t) => t.id === selectedId);
  for (let step = 1; step <= tasks.length; step++) {
    const task = tasks[(start + step) % tasks.length];
    if (task && task.status === 'waiting_human' && task.id !== selectedId) return task.id;
  }
  return null;
}

/** One row of the task list: a task at its depth under its parent, and how many of its subtasks are listed. */
export interface TaskRow {
  task: Task;
  depth: number;
  childCount: number;
}

export interface TaskListFilter {
  /** Matched against titles and instructions, ignoring case; blank lists every task. */
  query: string;
  showArchived: boolean;
  /** Parents whose subtasks are folded away (ignored while searching, so a match is never hidden). */
  collapsed: ReadonlySet<string>;
}

/**
 * The list as drawn: top-level tasks in the given order (newest first), each followed by its subtasks (oldest first,
 * indented). A subtask whose parent is not listed (archived, or not loaded) stands at the top level. While searching,
 * a task is listed when it or one of its subtasks matches, so a matching subtask keeps its parent as context.
 */
export function taskRows(tasks: readonly Task[], filter: TaskListFilter): TaskRow[] {
  const listed = tasks.filter((t) => filter.showArchived || t.archivedAt === null);
  const byId = new Set(listed.map((t) => t.id));
  const children = new Map<string, Task[]>();
  const roots: Task[] = [];
  for (const task of listed) {
    const parent = task.parentTaskId;
    const siblings = parent && parent !== task.id && byId.has(parent) ? children.get(parent) : undefined;
    if (siblings) siblings.push(task);
    else if (parent && parent !== task.id && byId.has(parent)) children.set(parent, [task]);
    else roots.push(task);
  }
  for (const list of children.values()) list.sort((a, b) => a.createdAt.localeCompare(b.createdAt));

  const query = filter.query.trim().toLocaleLowerCase();
  const matches = (t: Task) =>
    t.title.toLocaleLowerCase().includes(query) || t.instruction.toLocaleLowerCase().includes(query);
  // Each task has one parent, so what hangs under a top-level task is a tree: the walks below always end.
  const kept = new Map<string, boolean>();
  const keep = (t: Task): boolean => {
    let result = kept.get(t.id);
    if (result === undefined) {
      result = query === '' || matches(t) || (children.get(t.id) ?? []).some(keep);
      kept.set(t.id, result);
    }
    return result;
  };

  const rows: TaskRow[] = [];
  const walk = (task: Task, depth: number) => {
    const shown = (children.get(task.id) ?? []).filter(keep);
    rows.push({ task, depth, childCount: shown.length });
    if (query === '' && filter.collapsed.has(task.id)) return;
    for (const child of shown) walk(child, depth + 1);
  };
  for (const root of roots.filter(keep)) walk(root, 0);
  return rows;
}

/** How many subtasks hang under a task at any depth (what a delete or an archive takes with it). */
export function descendantCount(tasks: readonly Task[], taskId: string): number {
  let count = 0;
  let level = new Set([taskId]);
  while (level.size > 0) {
    const next = new Set(tasks.filter((t) => t.parentTaskId && level.has(t.parentTaskId)).map((t) => t.id));
    for (const id of next) if (id === taskId) next.delete(id);
    count += next.size;
    level = next;
  }
  return count;
}

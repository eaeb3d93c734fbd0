// Keeping the task list tidy: rename a task, archive it (or bring it back) with its subtasks, and delete it with its
// subtasks, every row that hangs on them and their runtime dirs. A running job must be cancelled first.
import fs from 'node:fs';
import path from 'node:path';
import type { OpOutput } from '../../src-shared/contract';
import type { Task } from '../../src-shared/entities';
import { MaestroError } from '../../src-shared/errors';
import { plainRepoOf } from '../checkpoints/locate';
import type { Store } from '../db/store';
import { subtasksDeleted } from '../jobs/lifecycle';
import { ephemeralWorkspace, runtimeDir } from '../workspace/paths';
import type { TaskContext } from './context';
import { requireTask } from './queries';

export function renameTask(
  ctx: TaskContext,
  { taskId, title }: { taskId: string; title: string },
): OpOutput<'renameTask'> {
  const { store } = ctx;
  const task = store.transact(() => {
    requireTask(ctx, taskId);
    store.tasks.rename(taskId, title);
    return publishChanged(store, taskId);
  });
  return { task };
}

export function archiveTask(
  ctx: TaskContext,
  { taskId, archived }: { taskId: string; archived: boolean },
): OpOutput<'archiveTask'> {
  const { store } = ctx;
  const tasks = store.transact(() => {
    requireTask(ctx, taskId);
    const at = archived ? Date.now() : null;
    // Its subtasks go with it, so the archive never holds a child whose parent is still listed (or the reverse).
    return store.tasks.tree(taskId).map((id) => {
      store.tasks.setArchived(id, at);
      return publishChanged(store, id);
    });
  });
  return { tasks };
}

export function deleteTask(ctx: TaskContext, { taskId }: { taskId: string }): OpOutput<'deleteTask'> {
  const { store } = ctx;
  const gone = store.transact(() => {
    requireTask(ctx, taskId);
    const ids = store.tasks.tree(taskId);
    const tasks = ids.map((id) => store.tasks.get(id) as Task);
    const jobs = ids.flatMap((id) => store.jobs.listForTask(id));
    // A worker holds a running job and writes its results as it goes: deleting under it would lose them mid-write.
    const running = jobs.find((j) => j.status === 'running');
    if (running) {
      const whose = running.taskId === taskId ? 'it' : `its subtask ${running.taskId}`;
      throw new MaestroError(
        'conflict',
        `task ${taskId} cannot be deleted while ${whose} has a running job (${running.id}); cancel it first`,
      );
    }
    const refs = ids.map((id) => ctx.checkpoints?.refsOf(id) ?? []);
    store.tasks.removeTrees(ids);
    // A parent outside the deleted tree that waited for one of these subtasks would otherwise wait for ever.
    subtasksDeleted(store, jobs);
    store.publish({ type: 'task.deleted', taskId, jobId: null, taskIds: ids });
    // A scratch folder (its own, or the one of the task it was forked from) goes with the last task that works in it.
    const scratchRoot = path.dirname(ephemeralWorkspace(ctx.dataDir, taskId));
    return tasks.map((task, i) => {
      const folder = task.workspacePath;
      const last = path.dirname(folder) === scratchRoot && !store.tasks.usedWorkspace(folder);
      return { task, refs: refs[i] ?? [], scratch: last ? folder : null };
    });
  });
  // Their checkpoints' refs and indexes, after the commit (a failure is logged: the rows are gone already); a scratch
  // folder's store goes with the folder below.
  ctx.checkpoints
    ?.forget(gone.map(({ task, refs, scratch }) => ({ task, refs, storeGone: scratch !== null })))
    .catch((error) => console.error(`deleteTask ${taskId}: checkpoints left behind:`, error));
  // The files after the commit: a failed transaction leaves them all. A folder that cannot be removed is left behind
  // (logged), as the task's rows are already gone.
  for (const { task, scratch } of gone) {
    const folders = [runtimeDir(ctx.dataDir, task.id)];
    if (scratch) folders.push(...plainStoreOf(ctx.dataDir, scratch), scratch);
    for (const folder of folders) {
      try {
        fs.rmSync(folder, { recursive: true, force: true });
      } catch (error) {
        console.error(`deleteTask ${taskId}: could not remove ${folder}:`, error);
      }
    }
  }
  return { deletedTaskIds: gone.map(({ task }) => task.id) };
}

/** The private checkpoint repository of a folder that is no repository, found from its real path; none if it is gone. */
function plainStoreOf(dataDir: string, folder: string): string[] {
  try {
    return [plainRepoOf(dataDir, fs.realpathSync(folder))];
  } catch {
    return [];
  }
}

function publishChanged(store: Store, taskId: string): Task {
  const task = store.tasks.get(taskId) as Task;
  store.publish({ type: 'task.changed', taskId, jobId: null, task });
  return task;
}

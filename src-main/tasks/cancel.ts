// POST /tasks/:id/cancel: the latest job and its subtasks are cancelled; a running one is also told to stop now.
import type { OpOutput } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import { toJob } from '../db/repos/jobs';
import { cancelJobTree } from '../jobs/lifecycle';
import type { TaskContext } from './context';
import { requireTask } from './queries';

export function cancelTask(ctx: TaskContext, { taskId }: { taskId: string }): OpOutput<'cancelTask'> {
  const { store } = ctx;
  const task = requireTask(ctx, taskId);
  // Read and cancel in one IMMEDIATE transaction, so the job cannot change state between the two.
  const { job, cancelled, descendants } = store.transact(() => {
    const latest = store.jobs.latestForTask(task.id);
    if (!latest) throw new MaestroError('conflict', `task ${taskId} has no job to cancel`);
    const descendants = store.jobs.openDescendants(latest.id);
    const cancelled = cancelJobTree(store, latest);
    // Already terminal: cancel is idempotent and answers with the job as it is.
    return { job: cancelled ?? latest, cancelled, descendants };
  });
  if (cancelled) {
    ctx.aborts.abort(cancelled.id, 'cancelled by the user');
    for (const d of descendants) ctx.aborts.abort(d.id, 'parent job cancelled');
  }
  return { job: toJob(job) };
}

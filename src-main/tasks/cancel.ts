// POST /tasks/:id/cancel: the latest job and its subtasks are cancelled; a running one is also told to stop now.
import type { OpOutput } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import { toJob } from '../db/repos/jobs';
import type { TaskContext } from './context';
import { cancelJobTree } from './job-lifecycle';
import { requireTask } from './queries';

export function cancelTask(ctx: TaskContext, { taskId }: { taskId: string }): OpOutput<'cancelTask'> {
  const task = requireTask(ctx, taskId);
  const latest = ctx.store.jobs.latestForTask(task.id);
  if (!latest) throw new MaestroError('conflict', `task ${taskId} has no job to cancel`);
  const cancelled = cancelJobTree(ctx.store, latest);
  if (cancelled) {
    ctx.aborts.abort(cancelled.id, 'cancelled by the user');
    for (const child of ctx.store.jobs.children(cancelled.id)) ctx.aborts.abort(child.id, 'parent job cancelled');
  }
  // Already terminal (or it ended while we looked): cancel is idempotent and answers with the job as it is.
  return { job: toJob(cancelled ?? (ctx.store.jobs.get(latest.id) as typeof latest)) };
}

// POST /tasks/:id/retry-now: the latest job, waiting to retry, becomes due now; the Worker claims it at once.
import type { OpOutput } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import { toJob } from '../db/repos/jobs';
import { retryNow as bringForward } from '../jobs/retry-now';
import type { TaskContext } from './context';
import { requireTask } from './queries';

export function retryNow(ctx: TaskContext, { taskId }: { taskId: string }): OpOutput<'retryNow'> {
  const { store } = ctx;
  const task = requireTask(ctx, taskId);
  const job = store.transact(() => {
    const latest = store.jobs.latestForTask(task.id);
    if (!latest) throw new MaestroError('conflict', `task ${taskId} has no job to retry`);
    return bringForward(store, latest.id);
  });
  return { job: toJob(job) };
}

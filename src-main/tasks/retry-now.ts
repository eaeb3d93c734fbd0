// POST /tasks/:id/retry-now: the latest job, waiting to retry, becomes due now; the Worker claims it at once.
import type { OpOutput } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import { toJob } from '../db/repos/jobs';
import type { TaskContext } from './context';
import { requireTask } from './queries';

export function retryNow(ctx: TaskContext, { taskId }: { taskId: string }): OpOutput<'retryNow'> {
  const { store } = ctx;
  const task = requireTask(ctx, taskId);
  const job = store.transact(() => {
    const latest = store.jobs.latestForTask(task.id);
    if (!latest) throw new MaestroError('conflict', `task ${taskId} has no job to retry`);
    // A compare-and-set on status: a job claimed or cancelled meanwhile is not moved.
    const due = store.jobs.retryNow(latest.id);
    if (!due) {
      throw new MaestroError(
        'conflict',
        `the latest job of task ${taskId} is ${latest.status}, not waiting to retry: there is no attempt to bring forward`,
      );
    }
    // The event wakes the Worker (a retry job changed) and tells the UI the new time.
    store.publish({ type: 'job.changed', taskId: due.taskId, jobId: due.id, job: toJob(due) });
    return due;
  });
  return { job: toJob(job) };
}

// Retry of a task's stopped job, from its error row or from Settings once the profile is fixed: a job that failed is
// continued (a new job resumes where it stopped, as Continue does — no operation of its own); one waiting to retry
// tries again now. Offered only while that job is the task's latest and stopped.
import type { Job } from '../../../src-shared/entities';
import type { ApiError } from '../api/client';
import { selectDetailOf } from '../store/entity-selectors';
import { useAppStore } from '../store/store';
import { useCardAction } from './useCardAction';

export function useRetryTask(taskId: string) {
  const latest = useAppStore((s) => selectDetailOf(s, taskId)?.jobs.at(-1));
  const continueTask = useAppStore((s) => s.continueTask);
  const retryNow = useAppStore((s) => s.retryNow);
  const action = useCardAction();
  const status = latest?.status;
  /** True when main took it (the job's events then bring the run to every view). */
  const retry = async (): Promise<boolean> => {
    let ok = false;
    await action.run(async () => {
      const outcome = status === 'retry' ? errorOutcome(await retryNow(taskId)) : await continueTask(taskId);
      ok = outcome.ok;
      return outcome;
    });
    return ok;
  };
  return { ...action, retry, latest };
}

const errorOutcome = (error: ApiError | null) => (error ? { ok: false as const, error } : { ok: true as const });

/** Whether `job` is its task's latest job and stopped: failed, or waiting to retry. */
export const isStopped = (job: Job | undefined, latest: Job | undefined): boolean =>
  job !== undefined && latest?.id === job.id && (job.status === 'failed' || job.status === 'retry');

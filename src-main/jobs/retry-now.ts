// retryNow: a job waiting to retry becomes due now (its status unchanged), so the Worker claims it at once.
import type { JobRecord } from '../db/repos/jobs';
import type { Store } from '../db/store';
import { publishJob } from './job-writes';
import { currentJob, JobCommandError } from './refusal';

/** Refused with `conflict` when the job is not waiting to retry (claimed, cancelled, never failed): nothing moves. */
export function retryNow(store: Store, jobId: string): JobRecord {
  return store.transact(() => {
    const job = currentJob(store, 'retryNow', jobId);
    const due = job.status === 'retry' ? store.jobs.retryNow(job.id) : undefined;
    if (!due) {
      throw new JobCommandError(
        'retryNow',
        'conflict',
        `job ${jobId} is ${job.status}, not waiting to retry: there is no attempt to bring forward`,
      );
    }
    // The event wakes the Worker (a retry job changed) and tells the UI the new time.
    publishJob(store, due);
    return due;
  });
}

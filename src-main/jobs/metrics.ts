// P2.37: what a job's run cost — how long, which attempt, the LlmCalls and tokens of the job so far — as one event.
import type { JobRecord } from '../db/repos/jobs';
import type { Store } from '../db/store';

/** Publishes `job.metrics`; a failure to record them is logged, never fatal to the job. */
export function publishJobMetrics(
  store: Store,
  job: JobRecord,
  durationMs: number,
  after: JobRecord | undefined,
): void {
  try {
    const status = after?.status ?? store.jobs.get(job.id)?.status ?? 'unknown';
    const usage = store.logEntries.jobUsage(job.taskId, job.id);
    store.publish({
      type: 'job.metrics',
      taskId: job.taskId,
      jobId: job.id,
      status,
      durationMs,
      attempt: job.attempt,
      usage,
    });
  } catch (error) {
    console.error(`metrics of ${job.id} could not be recorded:`, error);
  }
}

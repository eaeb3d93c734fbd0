// The worker's hold on a job: the claim (one UPDATE, so two workers never both win), its heartbeat, giving back a job
// this worker cannot run, the piece the LLM Router chose for it, and sending back the jobs of a worker that died.
import type { ClaimFilter, JobRecord } from '../db/repos/jobs';
import type { Store } from '../db/store';
import { changeJob, publishJob } from './job-writes';
import { heldJob } from './refusal';
import { givenBack } from './run-outcomes';

/** claim: the next job this worker may run, now running under it (its attempt counted); undefined: none. */
export function claim(store: Store, filter: ClaimFilter): JobRecord | undefined {
  return store.transact(() => {
    const job = store.jobs.claimNext(filter);
    if (job) publishJob(store, job);
    return job;
  });
}

/** The worker still holds the job; false when it no longer does (cancelled, or sent back as stale). */
export function heartbeat(store: Store, jobId: string, workerId: string): boolean {
  return store.jobs.heartbeat(jobId, workerId);
}

/** decline: the claimed job does not fit this worker after all (P2.13): back to the queue, its attempt given back. */
export function decline(store: Store, jobId: string, workerId: string): JobRecord {
  return store.transact(() => {
    const job = heldJob(store, 'decline', jobId, workerId);
    const patch = { workerId: null, heartbeatAt: null, attempt: givenBack(job) };
    const queued = changeJob(store, job, 'queued', patch, workerId);
    if (!queued) throw new Error(`job ${jobId} changed inside its own transaction`);
    return queued;
  });
}

/**
 * The piece the LLM Router chose for the task before its first job runs (P10.05), or the default it keeps when the
 * router failed (`warning` says why); the job running under `workerId` runs it.
 */
export function routed(
  store: Store,
  jobId: string,
  workerId: string,
  choice: { pieceId: string; warning: string | null },
): JobRecord {
  return store.transact(() => {
    const job = heldJob(store, 'routed', jobId, workerId);
    const { pieceId, warning } = choice;
    store.tasks.setChosenPiece(job.taskId, pieceId, warning ? 'default' : 'routed');
    const changed = store.jobs.setPiece(job.id, pieceId) as JobRecord;
    store.publish({ type: 'task.routed', taskId: job.taskId, jobId, pieceId, routed: !warning, warning });
    return changed;
  });
}

/**
 * recover: a job running under another worker whose heartbeat is older than `cutoff` (its worker died) is handed to
 * `sendBack` under the dead worker's name; undefined when it is not (any more) such a job. Checked under the write
 * lock: the worker may have been slow, not dead, and beaten us to it.
 */
export function recover<T>(
  store: Store,
  jobId: string,
  check: { cutoff: number; self: string },
  sendBack: (job: JobRecord & { workerId: string }) => T,
): T | undefined {
  return store.transact(() => {
    const job = store.jobs.get(jobId);
    if (job?.status !== 'running' || !job.workerId || !job.heartbeatAt || job.workerId === check.self) return undefined;
    if (Date.parse(job.heartbeatAt) >= check.cutoff) return undefined;
    return sendBack(job as JobRecord & { workerId: string });
  });
}

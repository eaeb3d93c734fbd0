// "Wake a parked job", decided here once: what happened says which park it ends and how the run goes on.
import { assertNever } from '../../src-shared/assert-never';
import type { WaitReason } from '../../src-shared/entities';
import type { JobPatch, JobRecord } from '../db/repos/jobs';
import type { Store } from '../db/store';
import { changeJob } from './job-writes';
import { currentJob, JobCommandError } from './refusal';

/** What ends a park: every request decided, the person's reply to a browser step, a token saved, settings reviewed. */
export type WakeCause = 'decided' | 'browser_replied' | 'token_saved' | 'settings_reviewed';

function parkOf(cause: WakeCause): { waits: readonly WaitReason[]; patch: JobPatch } {
  switch (cause) {
    case 'decided':
      // The decision resumes the parked run inside its Invoke: no new Invoke opens (P9.05).
      return { waits: ['tool_request', 'package_request'], patch: { pendingInvoke: null } };
    case 'browser_replied':
      return { waits: ['browser'], patch: {} };
    // These parked before the engine ran: the pending Invoke stays, and the run starts in its resumeMovement.
    case 'token_saved':
      return { waits: ['mcp_auth_required'], patch: {} };
    case 'settings_reviewed':
      return { waits: ['settings'], patch: {} };
    default:
      return assertNever(cause, 'wake cause');
  }
}

/**
 * Queues again a job parked on what `cause` ends. A job parked on something else (or not parked: cancelled,
 * running…) is refused with `job_not_waiting`, and nothing is written.
 */
export function wakeParked(store: Store, jobId: string, cause: WakeCause): JobRecord {
  return store.transact(() => {
    const job = currentJob(store, 'wakeParked', jobId);
    const { waits, patch } = parkOf(cause);
    if (job.status !== 'waiting_human' || !job.waitReason || !waits.includes(job.waitReason)) {
      throw new JobCommandError(
        'wakeParked',
        'job_not_waiting',
        `job ${jobId} is ${job.status}${job.waitReason ? ` (${job.waitReason})` : ''}: ${cause} does not wake it`,
      );
    }
    const woken = changeJob(store, job, 'queued', patch);
    if (!woken) throw new Error(`job ${jobId} changed inside its own transaction`);
    return woken;
  });
}

/** resumeAfterDecision: the job goes on once none of its tool or package requests is pending; undefined until then. */
export function resumeAfterDecision(store: Store, job: Pick<JobRecord, 'id'>): JobRecord | undefined {
  if (store.toolRequests.pendingCount(job.id) + store.packageRequests.pendingCount(job.id) > 0) return undefined;
  return wakeParked(store, job.id, 'decided');
}

// How a run of a job ends, one command each, for the worker that holds it: succeed, park for the person, wait for
// subtasks, retry later, fail. Each applies only to a job running under that worker (anything else is refused, as
// `conflict`, and nothing is written); each decides the status and the patch, so callers only say what happened.

import type { CommentNotice, JobErrorCode } from '../../src-shared/entities';
import { WHAT_NOW } from '../../src-shared/entities';
import type { JobPatch, JobRecord } from '../db/repos/jobs';
import type { NewPackageRequest } from '../db/repos/package-requests';
import type { NewToolRequest } from '../db/repos/tool-requests';
import type { Store } from '../db/store';
import { openAfter } from './follow-up';
import { changeJob, postComment, wakeParentIfDone } from './job-writes';
import { heldJob } from './refusal';
import { openRequests } from './requests';

/** Who ends the run: the worker holding the job, and whether its engine ran (a run consumes the pending Invoke). */
export interface RunHolder {
  workerId: string;
  /**
   * A run consumes the job's pending Invoke, so a park or a retry after it clears `pendingInvoke`: the resume
   * continues the same Invoke range (P9.05). Before the engine ran it is kept.
   */
  engineRan: boolean;
}

function end(store: Store, command: string, jobId: string, run: RunHolder, to: JobRecord['status'], patch: JobPatch) {
  const job = heldJob(store, command, jobId, run.workerId);
  const consumed: JobPatch = run.engineRan ? { pendingInvoke: null } : {};
  const changed = changeJob(store, job, to, { ...consumed, ...patch }, run.workerId);
  if (!changed) throw new Error(`job ${jobId} changed inside its own transaction`);
  return changed;
}

/** The piece completed: the result is the task's answer; messages the agent never read go on in a follow-up job. */
export function succeed(store: Store, jobId: string, run: RunHolder, result: string): JobRecord {
  return store.transact(() => {
    const done = end(store, 'succeed', jobId, run, 'succeeded', { result, resumeMovement: null });
    postComment(store, { taskId: done.taskId, jobId, author: 'agent', kind: 'result', body: result });
    // Messages the agent never read (posted after its last iteration) are not lost: a follow-up job reads them.
    if (store.comments.undeliveredInterjections(jobId).length > 0) {
      openAfter(store, done, { taskId: done.taskId, pieceId: done.pieceId, profile: done.profile });
    }
    return done;
  });
}

/** Why a run parks for a person, with what it shows them. */
export type Park =
  | { reason: 'ask'; movement: string; question: string; choices?: string[] }
  | { reason: 'approval'; movement: string; toolRequests: NewToolRequest[]; packageRequests: NewPackageRequest[] }
  | {
      reason: 'browser' | 'mcp_auth_required' | 'settings';
      /** null: at its piece's start (it parked before it began). */
      movement: string | null;
      message: string;
      notice?: CommentNotice;
    };

/** park: the job waits for a person, resuming in `movement`; what they see (question, cards, message) is posted. */
export function park(store: Store, jobId: string, run: RunHolder, why: Park): JobRecord {
  return store.transact(() => {
    switch (why.reason) {
      case 'ask': {
        const { askCount } = heldJob(store, 'park', jobId, run.workerId);
        const parked = end(store, 'park', jobId, run, 'waiting_human', {
          waitReason: 'ask',
          resumeMovement: why.movement,
          askCount: askCount + 1,
        });
        const { question: body, choices } = why;
        postComment(store, { taskId: parked.taskId, jobId, author: 'agent', kind: 'question', body, choices });
        return parked;
      }
      case 'approval': {
        if (why.toolRequests.length + why.packageRequests.length === 0) {
          throw new Error('a park for approval without any request');
        }
        const job = heldJob(store, 'park', jobId, run.workerId);
        openRequests(store, job, why.toolRequests, why.packageRequests);
        return end(store, 'park', jobId, run, 'waiting_human', {
          waitReason: why.toolRequests.length > 0 ? 'tool_request' : 'package_request',
          resumeMovement: why.movement,
        });
      }
      default: {
        const parked = end(store, 'park', jobId, run, 'waiting_human', {
          waitReason: why.reason,
          resumeMovement: why.movement,
        });
        const { message: body, notice } = why;
        postComment(store, { taskId: parked.taskId, jobId, author: 'system', kind: 'comment', body, notice });
        return parked;
      }
    }
  });
}

/** The job waits for its subtasks; if they all ended while it was still running, it goes on at once (Notify). */
export function waitForSubtasks(store: Store, jobId: string, run: RunHolder, movement: string): JobRecord {
  return store.transact(() => {
    end(store, 'waitForSubtasks', jobId, run, 'waiting_subtasks', { resumeMovement: movement });
    wakeParentIfDone(store, { parentJobId: jobId });
    return store.jobs.get(jobId) as JobRecord;
  });
}

export interface Failure {
  error: string;
  /** What kind of failure it is (a later failure without one clears it). */
  errorCode: JobErrorCode | null;
  /** Where the next attempt (or a follow-up) resumes. */
  resumeMovement: string | null;
}

/**
 * retryLater: the job is tried again at `nextRetryAt`, by whichever worker claims it then. An attempt that was not
 * the job's fault (`counted: false`: an outage of the model server, the host shutting down) is given back.
 */
export function retryLater(
  store: Store,
  jobId: string,
  run: RunHolder,
  retry: Failure & { nextRetryAt: number; counted: boolean },
): JobRecord {
  return store.transact(() => {
    const job = heldJob(store, 'retryLater', jobId, run.workerId);
    const { nextRetryAt, error, errorCode, resumeMovement } = retry;
    const given: JobPatch = retry.counted ? {} : { attempt: givenBack(job) };
    return end(store, 'retryLater', jobId, run, 'retry', {
      ...given,
      nextRetryAt,
      error,
      errorCode,
      resumeMovement,
      workerId: null,
    });
  });
}

/** The job failed for good; the task says why and what the person can do now. */
export function fail(store: Store, jobId: string, run: RunHolder, failure: Failure): JobRecord {
  return store.transact(() => {
    const failed = end(store, 'fail', jobId, run, 'failed', failure);
    const body = `${failure.error}\n\n${WHAT_NOW}`;
    postComment(store, { taskId: failed.taskId, jobId, author: 'system', kind: 'error', body });
    return failed;
  });
}

/** The attempt a claim counted, given back (the run it started did not count). */
export const givenBack = (job: Pick<JobRecord, 'attempt'>): number => job.attempt - 1;

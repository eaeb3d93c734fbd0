// handlePieceResult: maps every PieceRunResult to DB state, comments, events and parent/child handling, in one
// transaction. Every change is a CAS owned by this worker, so a job cancelled meanwhile stays cancelled.

import { assertNever } from '../../src-shared/assert-never';
import { backoffMs } from '../../src-shared/backoff';
import { WHAT_NOW } from '../../src-shared/entities';
import type { JobRecord } from '../db/repos/jobs';
import { toToolRequest } from '../db/repos/tool-requests';
import type { Store } from '../db/store';
import { cancelJobTree, changeJob, insertJob, postComment, wakeParentIfDone } from './lifecycle';
import type { PieceRunResult } from './piece-run-result';
import { DEFAULT_OUTAGE_POLICY, outageWaitMs, type RetryPolicy } from './retry-policy';

export interface HandleOptions {
  workerId: string;
  retry: RetryPolicy;
  now?: number;
  random?: () => number;
  /**
   * Whether the engine ran (default true). A run consumes the job's pending Invoke, so a park or a retry after it
   * clears `pendingInvoke`: the resume continues the same Invoke range (P9.05). Before the engine ran it is kept.
   */
  engineRan?: boolean;
}

/** The job's state after the result was applied; undefined when the job was no longer ours (e.g. cancelled). */
export function handlePieceResult(
  store: Store,
  job: JobRecord,
  result: PieceRunResult,
  options: HandleOptions,
): JobRecord | undefined {
  const { workerId } = options;
  const now = options.now ?? Date.now();
  const consumed = options.engineRan === false ? {} : { pendingInvoke: null };
  const change = (to: Parameters<typeof changeJob>[2], patch: Parameters<typeof changeJob>[3]) =>
    changeJob(store, job, to, { ...consumed, ...patch }, workerId);

  return store.transact(() => {
    const current = store.jobs.get(job.id);
    if (current?.status !== 'running' || current.workerId !== workerId) return undefined;
    switch (result.kind) {
      case 'completed': {
        const done = change('succeeded', { result: result.result, resumeMovement: null });
        if (done)
          postComment(store, {
            taskId: job.taskId,
            jobId: job.id,
            author: 'agent',
            kind: 'result',
            body: result.result,
          });
        // Messages the agent never read (posted after its last iteration) are not lost: a follow-up job reads them.
        if (done && store.comments.undeliveredInterjections(job.id).length > 0) {
          const followup = insertJob(store, {
            taskId: job.taskId,
            pieceId: job.pieceId,
            profile: job.profile,
            pendingInvoke: 'UserSend',
            askCount: job.askCount,
          });
          store.comments.moveUndelivered(job.id, followup.id);
        }
        return done;
      }
      case 'ask': {
        const parked = change('waiting_human', {
          waitReason: 'ask',
          resumeMovement: result.movement,
          askCount: job.askCount + 1,
        });
        if (parked)
          postComment(store, {
            taskId: job.taskId,
            jobId: job.id,
            author: 'agent',
            kind: 'question',
            body: result.question,
            choices: result.choices,
          });
        return parked;
      }
      case 'waiting_approval': {
        if (result.toolRequests.length + result.packageRequests.length === 0) {
          throw new Error('waiting_approval result without any request');
        }
        for (const r of result.toolRequests) {
          const request = toToolRequest(store.toolRequests.insert(job.taskId, job.id, r, now));
          store.publish({ type: 'tool_request.changed', taskId: job.taskId, jobId: job.id, request });
        }
        for (const r of result.packageRequests) {
          const request = store.packageRequests.insert(job.taskId, job.id, r, now);
          store.publish({ type: 'package_request.changed', taskId: job.taskId, jobId: job.id, request });
        }
        return change('waiting_human', {
          waitReason: result.toolRequests.length > 0 ? 'tool_request' : 'package_request',
          resumeMovement: result.movement,
        });
      }
      case 'waiting_human': {
        const parked = change('waiting_human', { waitReason: result.reason, resumeMovement: result.movement });
        if (parked)
          postComment(store, {
            taskId: job.taskId,
            jobId: job.id,
            author: 'system',
            kind: 'comment',
            body: result.message,
            notice: result.notice,
          });
        return parked;
      }
      case 'waiting_subtasks': {
        const parked = change('waiting_subtasks', { resumeMovement: result.movement });
        // Its children may all have ended while the parent was still running: then there is nothing to wait for.
        if (parked) wakeParentIfDone(store, { parentJobId: job.id });
        return store.jobs.get(job.id);
      }
      case 'cancelled':
        return cancelJobTree(store, current);
      case 'error': {
        const resumeMovement = result.movement ?? job.resumeMovement;
        // The code goes with the message it describes: a later error without one clears it.
        const errorCode = result.code ?? null;
        const outage = options.retry.outage ?? DEFAULT_OUTAGE_POLICY;
        if (result.retryable && result.outageMs !== undefined && result.outageMs < outage.giveUpAfterMs) {
          const nextRetryAt = now + outageWaitMs(result.outageMs, outage, options.random);
          // This attempt does not count: the claim that started it is given back.
          const attempt = job.attempt - 1;
          return change('retry', {
            nextRetryAt,
            attempt,
            error: result.message,
            errorCode,
            resumeMovement,
            workerId: null,
          });
        }
        if (result.retryable && job.attempt < options.retry.maxAttempts) {
          const nextRetryAt = now + backoffMs(job.attempt, options.retry, options.random);
          return change('retry', { nextRetryAt, error: result.message, errorCode, resumeMovement, workerId: null });
        }
        const reason = result.retryable ? ` (gave up after ${job.attempt} attempts)` : '';
        const failed = change('failed', { error: result.message + reason, errorCode, resumeMovement });
        if (failed)
          postComment(store, {
            taskId: job.taskId,
            jobId: job.id,
            author: 'system',
            kind: 'error',
            body: `${result.message}${reason}\n\n${WHAT_NOW}`,
          });
        return failed;
      }
      default:
        return assertNever(result, 'piece result');
    }
  });
}

// handlePieceResult: what a piece run ended in, said to the job's commands (run-outcomes.ts) in one transaction. The
// run's job must still be running under this worker: a job cancelled meanwhile stays cancelled.
import { assertNever } from '../../src-shared/assert-never';
import { backoffMs } from '../../src-shared/backoff';
import type { JobRecord } from '../db/repos/jobs';
import type { Store } from '../db/store';
import { cancelJobTree } from './lifecycle';
import type { PieceRunResult } from './piece-run-result';
import { DEFAULT_OUTAGE_POLICY, outageWaitMs, type RetryPolicy } from './retry-policy';
import { fail, park, type RunHolder, retryLater, succeed, waitForSubtasks } from './run-outcomes';

export interface HandleOptions {
  workerId: string;
  retry: RetryPolicy;
  now?: number;
  random?: () => number;
  /** Whether the engine ran (default true): see RunHolder. */
  engineRan?: boolean;
}

/** The job's state after the result was applied; undefined when the job was no longer ours (e.g. cancelled). */
export function handlePieceResult(
  store: Store,
  job: JobRecord,
  result: PieceRunResult,
  options: HandleOptions,
): JobRecord | undefined {
  const run: RunHolder = { workerId: options.workerId, engineRan: options.engineRan !== false };
  return store.transact(() => {
    const current = store.jobs.get(job.id);
    if (current?.status !== 'running' || current.workerId !== run.workerId) return undefined;
    switch (result.kind) {
      case 'completed':
        return succeed(store, job.id, run, result.result);
      case 'ask':
        return park(store, job.id, run, { ...result, reason: 'ask' });
      case 'waiting_approval':
        return park(store, job.id, run, { ...result, reason: 'approval' });
      case 'waiting_human':
        return park(store, job.id, run, result);
      case 'waiting_subtasks':
        return waitForSubtasks(store, job.id, run, result.movement);
      case 'cancelled':
        return cancelJobTree(store, current);
      case 'error':
        return afterError(store, job, run, result, options);
      default:
        return assertNever(result, 'piece result');
    }
  });
}

/**
 * A failed run is tried again while it is worth it: an outage of the model server is waited out without using an
 * attempt (up to the outage policy's limit), a retryable error with backoff up to maxAttempts; else the job fails.
 */
function afterError(
  store: Store,
  job: JobRecord,
  run: RunHolder,
  error: Extract<PieceRunResult, { kind: 'error' }>,
  options: HandleOptions,
): JobRecord {
  const now = options.now ?? Date.now();
  // The code goes with the message it describes: a later error without one clears it.
  const failure = {
    error: error.message,
    errorCode: error.code ?? null,
    resumeMovement: error.movement ?? job.resumeMovement,
  };
  const outage = options.retry.outage ?? DEFAULT_OUTAGE_POLICY;
  if (error.retryable && error.outageMs !== undefined && error.outageMs < outage.giveUpAfterMs) {
    const nextRetryAt = now + outageWaitMs(error.outageMs, outage, options.random);
    return retryLater(store, job.id, run, { ...failure, nextRetryAt, counted: false });
  }
  if (error.retryable && job.attempt < options.retry.maxAttempts) {
    const nextRetryAt = now + backoffMs(job.attempt, options.retry, options.random);
    return retryLater(store, job.id, run, { ...failure, nextRetryAt, counted: true });
  }
  const reason = error.retryable ? ` (gave up after ${job.attempt} attempts)` : '';
  return fail(store, job.id, run, { ...failure, error: error.message + reason });
}

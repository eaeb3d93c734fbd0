// The job state machine: the one table of allowed status transitions (architecture rule 4). Anything else throws.
import type { JobStatus } from '../../src-shared/entities';
import { CodedError } from '../../src-shared/errors';

export const JOB_TRANSITIONS: Readonly<Record<JobStatus, readonly JobStatus[]>> = {
  queued: ['running', 'cancelled'],
  // running → queued: the claimed job does not fit this worker after all (P2.13).
  running: ['queued', 'waiting_human', 'waiting_subtasks', 'retry', 'succeeded', 'failed', 'cancelled'],
  // waiting_human → queued: decision made, browser step answered, MCP token saved; → succeeded: the ASK was answered.
  waiting_human: ['queued', 'succeeded', 'cancelled'],
  waiting_subtasks: ['queued', 'cancelled'],
  retry: ['running', 'cancelled'],
  succeeded: [],
  failed: [],
  cancelled: [],
};

export class IllegalTransitionError extends CodedError {
  readonly code = 'illegal_transition';
  constructor(
    readonly from: JobStatus,
    readonly to: JobStatus,
  ) {
    super(`job status ${from} → ${to} is not a transition of the job state machine`);
  }
}

export function canTransition(from: JobStatus, to: JobStatus): boolean {
  return JOB_TRANSITIONS[from].includes(to);
}

export function assertTransition(from: JobStatus, to: JobStatus): void {
  if (!canTransition(from, to)) throw new IllegalTransitionError(from, to);
}

// Why a job's run was told to stop, as a type: the Worker tells a shutdown from a cancel by its kind, never by its
// words, and the loop turns a deadline into the job's deadline_exceeded error.

import { assertNever } from '../../src-shared/assert-never';
import type { MovementResult } from './movement-result';

export type AbortKind =
  /** A person cancelled the job (or its parent). */
  | 'cancelled'
  /** The host is shutting down: the job goes back to retry, uncounted. */
  | 'shutdown'
  /** The job ran past its deadline. */
  | 'deadline'
  /** This worker no longer holds the job (its lease went to another). */
  | 'lease_lost';

export class JobAbort extends Error {
  constructor(
    readonly kind: AbortKind,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Why `signal` was aborted: a reason given as anything but a JobAbort counts as a cancel, in its words. */
export function abortOf(signal: AbortSignal): JobAbort {
  const reason = signal.reason as unknown;
  if (reason instanceof JobAbort) return reason;
  return new JobAbort(
    'cancelled',
    reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'cancelled',
  );
}

/** How a movement ends on an abort. */
export function stoppedBy(abort: JobAbort): MovementResult {
  switch (abort.kind) {
    case 'deadline':
      return {
        kind: 'error',
        message: `deadline_exceeded: ${abort.message}`,
        retryable: false,
        code: 'deadline_exceeded',
      };
    case 'cancelled':
    case 'shutdown':
    case 'lease_lost':
      return { kind: 'cancelled', reason: abort.message };
    default:
      return assertNever(abort.kind, 'abort kind');
  }
}

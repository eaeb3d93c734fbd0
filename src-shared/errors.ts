// The errors of the app: one base class with a stable code, the one error shape every transport returns
// ({ code, message, issues? }), and the codes a caller can rely on.
//
// CodedError is the base, not MaestroError: a MaestroError is the caller's failure and its code is an HTTP status of
// the bridge (ERROR_STATUS), so its message goes back to the caller; every other CodedError is the app's own
// (a broken file, a closed DB, an LLM failure), its code is for logs and code that handles it, and a transport answers
// it as 500 `internal` without its message.
export const ERROR_STATUS = {
  invalid_input: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  approval_pending: 409,
  already_decided: 409,
  job_not_terminal: 409,
  job_not_waiting: 409,
  conflict: 409,
  method_not_allowed: 405,
  payload_too_large: 413,
  internal: 500,
  // The database or the disk cannot take writes for now (another process holds the lock, the disk is full or
  // failing): retryable, answered with Retry-After.
  database_busy: 503,
  disk_full: 503,
  storage_failing: 503,
  // The shared PostgreSQL database does not answer (down, unreachable, or too slow): retryable like the above.
  database_unreachable: 503,
  // The desktop's core process stopped without being asked and is being started again: the call may not have run;
  // the window says so and the person retries once it is back.
  core_restarting: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorIssue {
  path: (string | number)[];
  message: string;
}

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  issues?: ErrorIssue[];
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorBody };

/** Every error class of the app: `name` is the class's own, `code` a stable snake_case word for what went wrong. */
export abstract class CodedError extends Error {
  abstract readonly code: string;
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A failure that belongs to the caller (bad input, unknown id, conflict), thrown by operations and mapped by transports. */
export class MaestroError extends CodedError {
  readonly code: ErrorCode;
  readonly issues?: ErrorIssue[];
  constructor(code: ErrorCode, message: string, issues?: ErrorIssue[]) {
    super(message);
    this.code = code;
    this.issues = issues;
  }
  toBody(): ErrorBody {
    return this.issues
      ? { code: this.code, message: this.message, issues: this.issues }
      : { code: this.code, message: this.message };
  }
}

export const INTERNAL_ERROR: ErrorBody = { code: 'internal', message: 'internal error' };

/** What a transport answers for a thrown error: a MaestroError's own body; anything else is `internal`, unexplained. */
export const errorBody = (error: unknown): ErrorBody =>
  error instanceof MaestroError ? error.toBody() : { ...INTERNAL_ERROR };

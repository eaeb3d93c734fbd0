// The one error shape every transport returns: { code, message, issues? }, and the codes callers can rely on.
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

/** A failure that belongs to the caller (bad input, unknown id, conflict), thrown by operations and mapped by transports. */
export class MaestroError extends Error {
  readonly code: ErrorCode;
  readonly issues?: ErrorIssue[];
  constructor(code: ErrorCode, message: string, issues?: ErrorIssue[]) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.issues = issues;
  }
  toBody(): ErrorBody {
    return this.issues
      ? { code: this.code, message: this.message, issues: this.issues }
      : { code: this.code, message: this.message };
  }
}

// The one error the LLM layer throws: its kind tells the engine whether the job fails or retries later.
import type { JobErrorCode } from '../../src-shared/entities';
import { CodedError } from '../../src-shared/errors';
import type { ReplyLimitBreach } from './reply-limits';
import type { LlmCallRecord } from './types';

/**
 * - `terminal`: the backend refused the request for good (401, 403, unknown model, other 4xx) → job `failed`.
 * - `context_overflow`: the prompt does not fit, found before sending or reported by the backend.
 * - `retries_exhausted`: recoverable errors outlasted the retry budget → job `retry`.
 * - `unreachable`: no server answered (refused, unknown host, still loading) → job `retry`, waiting the outage out.
 * - `limit`: the reply reached a limit of the profile (its bytes, one tool call's bytes, its total time) → job
 *   `failed`: the same request would reach it again, so it is never retried.
 * - `aborted`: the caller's signal fired.
 */
export type LlmErrorKind = 'terminal' | 'context_overflow' | 'retries_exhausted' | 'unreachable' | 'limit' | 'aborted';

export interface LlmErrorOptions {
  status?: number;
  /** The LlmCalls made before the error (each also went through the hooks). */
  calls?: LlmCallRecord[];
  estimatedTokens?: number;
  contextWindow?: number;
  /** What to do about it, where the fix is known (also at the end of the message). */
  hint?: string;
  /** `unreachable`: how long the server has been unreachable so far (since the first refused LlmCall). */
  outageMs?: number;
  /** `limit`: which limit of the profile, and its value. */
  breach?: ReplyLimitBreach;
}

export class LlmError extends CodedError {
  readonly code = 'llm_call_failed';
  readonly kind: LlmErrorKind;
  readonly status: number | undefined;
  readonly calls: LlmCallRecord[];
  readonly estimatedTokens: number | undefined;
  readonly contextWindow: number | undefined;
  readonly hint: string | undefined;
  readonly outageMs: number | undefined;
  readonly breach: ReplyLimitBreach | undefined;

  constructor(kind: LlmErrorKind, message: string, options: LlmErrorOptions = {}) {
    super(message);
    this.kind = kind;
    this.status = options.status;
    this.calls = options.calls ?? [];
    this.estimatedTokens = options.estimatedTokens;
    this.contextWindow = options.contextWindow;
    this.hint = options.hint;
    this.outageMs = options.outageMs;
    this.breach = options.breach;
  }

  /** True when running the same job again later may succeed: recoverable errors outlasted the budget, or an outage. */
  get retryable(): boolean {
    return this.kind === 'retries_exhausted' || this.kind === 'unreachable';
  }
}

export function isLlmError(err: unknown): err is LlmError {
  return err instanceof LlmError;
}

/**
 * What the person can fix in the profile, when the error says so: a refused key (401/403), a server nobody answered
 * at, or a model the server does not know (404 naming the model, the hint table's rule). Undefined otherwise.
 */
export function profileErrorCode(error: LlmError): JobErrorCode | undefined {
  if (error.kind === 'unreachable') return 'profile_unreachable';
  if (error.kind !== 'terminal') return undefined;
  if (error.status === 401 || error.status === 403) return 'profile_key_refused';
  if (error.status === 404 && /model/i.test(error.message)) return 'profile_model_unknown';
  return undefined;
}

// Which failed LlmCalls are retried, and after how long: classification of SDK errors, retry-after, backoff.
import OpenAI from 'openai';
import { backoffMs } from '../../src-shared/backoff';
import { CONTEXT_OVERFLOW, type FailureFacts, isPermanent } from './hints';
import { type ReplyLimitBreach, ReplyLimitError } from './reply-limits';
import { messageOfBody } from './server-message';

export interface RetryOptions {
  /** Retries after the first LlmCall of an AgentTurn: at most maxRetries + 1 LlmCalls. */
  maxRetries: number;
  /** First backoff; doubles per retry, with jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A server's retry-after is honoured up to this. */
  maxRetryAfterMs: number;
}

/**
 * One retry inside the AgentTurn for a blip; longer trouble is the job's retry (jobs/retry-policy.ts), which waits
 * minutes where this waits seconds. Together a server that fails every request sees (1 + 1) × 4 = 8 requests.
 */
export const DEFAULT_RETRY: RetryOptions = {
  maxRetries: 1,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
};

/**
 * - `retry`: transient (a reset connection, 408/409/425/429, 502/503/504 and other 5xx, a cut or stalled stream).
 * - `unreachable`: no server answers (connection refused, unknown host, a server still loading its model): an outage
 *   to wait out.
 * - `terminal`: the request can never work as sent (4xx, or a 5xx whose message says so, e.g. llama.cpp's --jinja).
 * - `context_overflow`: the prompt does not fit, whatever status the server reported it with.
 */
export type FailureDisposition = 'retry' | 'unreachable' | 'terminal' | 'context_overflow' | 'limit' | 'aborted';

export interface AttemptFailure {
  disposition: FailureDisposition;
  message: string;
  status?: number;
  retryAfterMs?: number;
  /** `limit`: the profile's limit the reply reached (the same request would reach it again: never retried). */
  breach?: ReplyLimitBreach;
}

/**
 * What ended a call besides its own error: the caller's signal (`aborted`), our idle timer (`stalled`), or a limit of
 * the profile (`breach`: the reply's bytes, one event's or tool call's bytes, the total time).
 */
export interface CallState {
  aborted: boolean;
  stalled: boolean;
  breach?: ReplyLimitBreach;
}

/** Socket errors that mean nothing listens at the address (or the name does not resolve). */
const UNREACHABLE_CODES: readonly string[] = [
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
];

/** Classifies what went wrong in one LlmCall. */
export function classifyFailure(err: unknown, state: CallState): AttemptFailure {
  if (state.aborted) return { disposition: 'aborted', message: 'aborted' };
  if (state.breach)
    return { disposition: 'limit', message: new ReplyLimitError(state.breach).message, breach: state.breach };
  if (state.stalled) return { disposition: 'retry', message: 'stream stalled: no data within the idle timeout' };
  if (err instanceof OpenAI.APIUserAbortError) return { disposition: 'aborted', message: 'aborted' };
  if (err instanceof OpenAI.APIConnectionError) {
    const code = socketCode(err);
    const unreachable = code !== undefined && UNREACHABLE_CODES.includes(code);
    return { disposition: unreachable ? 'unreachable' : 'retry', message: errorText(err) };
  }
  if (err instanceof OpenAI.APIError) {
    const status = err.status;
    if (status === undefined) {
      // An error event inside the stream: the SDK keeps its `error` field as it came.
      const message = messageOfBody(err.error) ?? errorText(err);
      return { disposition: byWords({ message }) ?? 'retry', message };
    }
    const message = errorText(err);
    const facts = { status, message };
    const overflow = CONTEXT_OVERFLOW.test(message) || isOverflowCode(err.code);
    if (status === 429 || status === 408 || status === 409 || status === 425) {
      return { disposition: 'retry', message, status, retryAfterMs: retryAfterMs(err.headers) };
    }
    if (overflow) return { disposition: 'context_overflow', message, status };
    if (status >= 500) {
      // llama.cpp answers 503 "Loading model" until its model is loaded: not up yet, like a server not started.
      if (status === 503 && /loading model/i.test(message)) return { disposition: 'unreachable', message, status };
      if (isPermanent(facts) || status === 501) return { disposition: 'terminal', message, status };
      return { disposition: 'retry', message, status, retryAfterMs: retryAfterMs(err.headers) };
    }
    return { disposition: 'terminal', message, status };
  }
  // Socket torn mid-body ("terminated"), a garbled SSE line, a reset connection: the stream broke.
  return { disposition: 'retry', message: `stream broken: ${errorText(err)}` };
}

function byWords(facts: FailureFacts): FailureDisposition | undefined {
  if (CONTEXT_OVERFLOW.test(facts.message)) return 'context_overflow';
  return isPermanent(facts) ? 'terminal' : undefined;
}

function isOverflowCode(code: string | null | undefined): boolean {
  return (
    code === 'context_length_exceeded' || code === 'string_above_max_length' || code === 'exceed_context_size_error'
  );
}

/** The `code` of the first error in the cause chain that has one (undici wraps the socket error in "fetch failed"). */
function socketCode(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === 'string') return code;
    current = current.cause;
  }
  return undefined;
}

function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const causes: string[] = [];
  let cause = err.cause;
  while (cause instanceof Error && causes.length < 3) {
    if (cause.message && cause.message !== err.message) causes.push(cause.message);
    cause = cause.cause;
  }
  return causes.length > 0 ? `${err.message} (${causes.join(': ')})` : err.message;
}

/** `retry-after-ms`, or `retry-after` in seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  const ms = headers?.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The wait before retry number `retry` (1-based): retry-after when the server gave one, else jittered backoff. */
export function retryDelayMs(
  retry: number,
  failure: AttemptFailure,
  options: RetryOptions,
  random: () => number = Math.random,
): number {
  if (failure.retryAfterMs !== undefined) return Math.min(failure.retryAfterMs, options.maxRetryAfterMs);
  return backoffMs(retry, options, random);
}

// Which failed LlmCalls are retried, and after how long: classification of SDK errors, retry-after, backoff.
import OpenAI from 'openai';
import { backoffMs } from '../../src-shared/backoff';

export interface RetryOptions {
  /** Retries after the first LlmCall of an AgentTurn: at most maxRetries + 1 LlmCalls. */
  maxRetries: number;
  /** First backoff; doubles per retry, with jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A server's retry-after is honoured up to this. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxRetries: 4,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
};

export type FailureDisposition = 'retry' | 'terminal' | 'context_overflow' | 'aborted';

export interface AttemptFailure {
  disposition: FailureDisposition;
  message: string;
  status?: number;
  retryAfterMs?: number;
}

const CONTEXT_OVERFLOW =
  /context[ _-]?(length|window)|maximum context|prompt is too long|too many tokens|reduce the length of the messages/i;

/** Classifies what went wrong in one LlmCall. `aborted`: the caller's signal fired; `stalled`: our idle timer did. */
export function classifyFailure(err: unknown, state: { aborted: boolean; stalled: boolean }): AttemptFailure {
  if (state.aborted) return { disposition: 'aborted', message: 'aborted' };
  if (state.stalled) return { disposition: 'retry', message: 'stream stalled: no data within the idle timeout' };
  if (err instanceof OpenAI.APIUserAbortError) return { disposition: 'aborted', message: 'aborted' };
  if (err instanceof OpenAI.APIConnectionError) return { disposition: 'retry', message: errorText(err) };
  if (err instanceof OpenAI.APIError) {
    const message = errorText(err);
    const status = err.status;
    if (status === undefined) {
      // An error event inside the stream.
      return { disposition: CONTEXT_OVERFLOW.test(message) ? 'context_overflow' : 'retry', message };
    }
    if (status === 408 || status === 409 || status === 425 || status === 429 || status >= 500) {
      return { disposition: 'retry', message, status, retryAfterMs: retryAfterMs(err.headers) };
    }
    if ((status === 400 || status === 413) && (CONTEXT_OVERFLOW.test(message) || isOverflowCode(err.code))) {
      return { disposition: 'context_overflow', message, status };
    }
    return { disposition: 'terminal', message, status };
  }
  // Socket torn mid-body ("terminated"), a garbled SSE line, a reset connection: the stream broke.
  return { disposition: 'retry', message: `stream broken: ${errorText(err)}` };
}

function isOverflowCode(code: string | null | undefined): boolean {
  return code === 'context_length_exceeded' || code === 'string_above_max_length';
}

function errorText(err: unknown): string {
  if (err instanceof Error) {
    const cause = err.cause instanceof Error && err.cause.message !== err.message ? ` (${err.cause.message})` : '';
    return `${err.message}${cause}`;
  }
  return String(err);
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

// What a failed job's error is, in the person's words: the job's error code and the server's own text (status,
// "timed out", "ECONNREFUSED") mapped to one case of a model call gone wrong — the key refused, the model unknown,
// requests limited, the server down, unreachable or too slow, the conversation too long — or to the job's other
// failures; with the field of the profile that fixes it, where one does.
import { assertNever } from '../../../src-shared/assert-never';
import type { JobErrorCode } from '../../../src-shared/entities';
import type { Translate } from '../i18n';

export const MODEL_FAILURES = [
  'auth',
  'model_not_found',
  'rate_limit',
  'server_error',
  'unreachable',
  'timeout',
  'context_too_long',
  'profile_missing',
] as const;
export type ModelFailure = (typeof MODEL_FAILURES)[number];

/** The job's failures that are not a model call's: their words are the job's own (job.error.<code>). */
type OtherCode = Exclude<
  JobErrorCode,
  'profile_key_refused' | 'profile_unreachable' | 'profile_model_unknown' | 'profile_missing' | 'context_overflow'
>;

export type ErrorCase =
  | { kind: 'model'; failure: ModelFailure; status: number | null }
  | { kind: 'job'; code: OtherCode }
  /** Nothing known about it: a generic sentence, the text folded under it as always. */
  | { kind: 'unknown'; status: number | null };

/** The first HTTP status the text gives after a colon ("refused: 401 …", "LlmCalls: 429 …"); null when none. */
export function statusIn(text: string): number | null {
  const found = /(?:^|:\s*)([45]\d\d)(?=\s|$)/m.exec(text);
  return found ? Number(found[1]) : null;
}

const TIMED_OUT = /\btimed?[ -]?out\b|ETIMEDOUT|ESOCKETTIMEDOUT/i;
const UNREACHABLE = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|EHOSTUNREACH|connection (?:error|refused)/i;
const TOO_LONG = /context[_ ](?:length|window|overflow)|maximum context|too many tokens|prompt is too long/i;
const RATE_LIMITED = /rate[_ ]?limit|too many requests/i;

/** The case of a job's error: its code first (main classified it), then what the server's text says. */
export function errorCase(code: JobErrorCode | undefined, detail: string): ErrorCase {
  const status = statusIn(detail);
  const model = (failure: ModelFailure): ErrorCase => ({ kind: 'model', failure, status });
  switch (code) {
    case 'profile_key_refused':
      return model('auth');
    case 'profile_model_unknown':
      return model('model_not_found');
    case 'profile_unreachable':
      return model(TIMED_OUT.test(detail) ? 'timeout' : 'unreachable');
    case 'profile_missing':
      return model('profile_missing');
    case 'context_overflow':
      return model('context_too_long');
    case 'llm_failed':
    case undefined: {
      const failure = failureFromText(detail, status);
      if (failure) return model(failure);
      return code === undefined ? { kind: 'unknown', status } : { kind: 'job', code };
    }
    case 'llm_limit':
    case 'model_refused':
    case 'deadline_exceeded':
    case 'iteration_limit':
    case 'tool_loop':
    case 'no_reply':
      return { kind: 'job', code };
    default:
      return assertNever(code, 'job error code');
  }
}

function failureFromText(detail: string, status: number | null): ModelFailure | null {
  if (status === 401 || status === 403) return 'auth';
  if (status === 429 || RATE_LIMITED.test(detail)) return 'rate_limit';
  if (TOO_LONG.test(detail)) return 'context_too_long';
  if (status === 404 && /model/i.test(detail)) return 'model_not_found';
  if (status === 408 || status === 504 || TIMED_OUT.test(detail)) return 'timeout';
  if (status !== null && status >= 500) return 'server_error';
  if (UNREACHABLE.test(detail) || /unreachable/i.test(detail)) return 'unreachable';
  return null;
}

/** The row's headline: what went wrong, in the person's words, naming the profile and the server's status. */
export function errorHeadline(t: Translate, found: ErrorCase, profile: string | null): string {
  const name = profile ?? '?';
  switch (found.kind) {
    case 'model':
      return t(`modelError.${found.failure}`, { name, status: statusWords(t, found.status) });
    case 'job':
      return t(`job.error.${found.code}`, { name });
    case 'unknown':
      return t('modelError.unknown', { status: statusWords(t, found.status) });
    default:
      return assertNever(found, 'error case');
  }
}

const statusWords = (t: Translate, status: number | null) =>
  status === null ? '' : t('modelError.status', { status });

/** The profile's field that fixes it (focused when the profile's form opens from the error); null: none in particular. */
export function fixField(found: ErrorCase): 'apiKey' | 'model' | 'baseURL' | 'contextWindow' | null {
  if (found.kind !== 'model') return null;
  switch (found.failure) {
    case 'auth':
      return 'apiKey';
    case 'model_not_found':
      return 'model';
    case 'unreachable':
    case 'timeout':
      return 'baseURL';
    case 'context_too_long':
      return 'contextWindow';
    case 'rate_limit':
    case 'server_error':
    case 'profile_missing':
      return null;
    default:
      return assertNever(found.failure, 'model failure');
  }
}

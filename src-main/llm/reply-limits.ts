// What one LlmCall may spend (issue 21): a profile's limits with their defaults, a limit reached, and how it is said.
import { REPLY_LIMIT_DEFAULTS, ReplyLimitFields, type ReplyLimitName } from '../../src-shared/contract/profiles';
import { CodedError } from '../../src-shared/errors';

export type ReplyLimits = Record<ReplyLimitName, number>;

/** The profile's limits, each of its own or the default. */
export function replyLimitsOf(profile: Partial<ReplyLimits>): ReplyLimits {
  return {
    maxReplyBytes: profile.maxReplyBytes ?? REPLY_LIMIT_DEFAULTS.maxReplyBytes,
    maxToolArgumentBytes: profile.maxToolArgumentBytes ?? REPLY_LIMIT_DEFAULTS.maxToolArgumentBytes,
    maxCallSeconds: profile.maxCallSeconds ?? REPLY_LIMIT_DEFAULTS.maxCallSeconds,
  };
}

/**
 * The most one SSE event may hold: one tool call's arguments plus room for the chunk around them. Counted before the
 * SDK's parser sees the event (it copies the event's bytes once per network read, so a huge event costs it quadratic
 * time).
 */
export const eventCap = (limits: ReplyLimits): number => limits.maxToolArgumentBytes + 64 * 1024;

/** A limit an LlmCall reached: the profile field and the value it had. */
export interface ReplyLimitBreach {
  limit: ReplyLimitName;
  value: number;
}

/** Thrown where a reply is read when it passes a limit; the call ends with it, and is not retried. */
export class ReplyLimitError extends CodedError {
  readonly code = 'llm_reply_limit';
  constructor(readonly breach: ReplyLimitBreach) {
    super(`${WHAT[breach.limit](breach.value)} (the LLM profile's ${breach.limit})`);
  }
}

const WHAT: Record<ReplyLimitName, (value: number) => string> = {
  maxReplyBytes: (v) => `the reply passed ${bytes(v)}`,
  maxToolArgumentBytes: (v) => `one tool call's arguments (or one streamed event) passed ${bytes(v)}`,
  maxCallSeconds: (v) => `the reply took longer than ${v} s`,
};

const ENV_NAMES: Record<ReplyLimitName, string> = {
  maxReplyBytes: 'MAESTRO_LLM_MAX_REPLY_BYTES',
  maxToolArgumentBytes: 'MAESTRO_LLM_MAX_TOOL_ARGUMENT_BYTES',
  maxCallSeconds: 'MAESTRO_LLM_MAX_CALL_SECONDS',
};

/**
 * The error's words: which limit, its value, that nothing is retried, and where to change it — the environment
 * variable for the env profile, Settings for a saved one.
 */
export function breachMessage(breach: ReplyLimitBreach, profile: string, fromEnv: boolean): string {
  const where = fromEnv
    ? `set ${ENV_NAMES[breach.limit]}`
    : `raise "${breach.limit}" of LLM profile "${profile}" in Settings → LLM profiles`;
  return `LLM reply stopped: ${WHAT[breach.limit](breach.value)}, the limit ${breach.limit} = ${breach.value} of LLM profile "${profile}"; the call was not retried and nothing of the reply was kept. If the model really needs more, ${where}`;
}

/** The env profile's limits; a value that is not a whole number in its range throws, naming the variable. */
export function replyLimitsFromEnv(env: NodeJS.ProcessEnv): Partial<ReplyLimits> {
  const limits: Partial<ReplyLimits> = {};
  for (const name of Object.keys(ENV_NAMES) as ReplyLimitName[]) {
    const text = env[ENV_NAMES[name]]?.trim();
    if (!text) continue;
    const parsed = ReplyLimitFields[name].safeParse(/^\d+$/.test(text) ? Number(text) : Number.NaN);
    if (!parsed.success) {
      const range = ReplyLimitFields[name];
      throw new Error(
        `${ENV_NAMES[name]}=${JSON.stringify(text.slice(0, 40))}: must be a whole number from ${range.minValue} to ${range.maxValue}`,
      );
    }
    limits[name] = parsed.data;
  }
  return limits;
}

function bytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

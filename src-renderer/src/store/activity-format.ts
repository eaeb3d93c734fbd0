// How the activity timeline writes times and the details of job states and LLM calls.
import type { JobStatus, WaitReason } from '../../../src-shared/entities';
import type { Translate } from '../i18n/translate';
import type { LlmCallFacts } from './activity-row-facts';

interface JobFacts {
  status: JobStatus;
  waitReason: WaitReason | null;
  attempt: number;
  nextRetryAt: string | null;
  error: string | null;
  result: string | null;
}

export function jobDetail(job: JobFacts, t: Translate): string | null {
  switch (job.status) {
    case 'waiting_human':
      return job.waitReason ? t(`activity.wait.${job.waitReason}`) : null;
    case 'retry': {
      const parts = [t('activity.attempt', { attempt: job.attempt + 1 })];
      if (job.nextRetryAt) parts.push(t('activity.nextAt', { time: formatClock(job.nextRetryAt) }));
      if (job.error) parts.push(job.error);
      return parts.join(' · ');
    }
    case 'failed':
      return job.error;
    case 'succeeded':
      return job.result;
    case 'running':
      return job.attempt > 1 ? t('activity.attempt', { attempt: job.attempt }) : null;
    case 'queued':
    case 'waiting_subtasks':
    case 'cancelled':
      return null;
    default: {
      const unknown: never = job.status;
      throw new Error(`unknown job status ${String(unknown)}`);
    }
  }
}

export function llmDetail(llm: LlmCallFacts, t: Translate): string {
  return t('activity.llmDetail', {
    attempt: llm.attempt,
    outcome: llm.outcome,
    latency: formatDuration(llm.latencyMs),
    ttft: llm.ttftMs === null ? '' : t('activity.ttft', { ttft: formatDuration(llm.ttftMs) }),
    prompt: llm.promptTokens,
    cached: llm.cachedPromptTokens,
    completion: llm.completionTokens,
  });
}

/** A duration for a row: 850 ms, 12.3 s, 4 m 05 s, 1 h 02 m. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.floor(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)} m ${String(seconds % 60).padStart(2, '0')} s`;
  const minutes = Math.floor(seconds / 60);
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} m`;
}

/** A row's clock time with seconds, in the local zone. */
/** One formatter per language: making one for each time shown costs more than the rest of a timeline row. */
const CLOCKS = new Map<string, Intl.DateTimeFormat>();

/** A time of day to the second, in `locale` (the UI's language; default the OS's). */
export function formatClock(iso: string, locale?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const key = locale ?? '';
  let clock = CLOCKS.get(key);
  if (!clock) {
    clock = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
    CLOCKS.set(key, clock);
  }
  return clock.format(date);
}

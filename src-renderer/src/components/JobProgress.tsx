// The latest job's progress under the task header: the movements it went through (the current one marked) and,
// while it generates, what the model is doing: waiting for it, streaming, retrying, or running tools. Above them,
// what the job waits for when the person can help: an LLM profile (with the way to set one up), or its next attempt
// (when, updating, with "Retry now").
import { useEffect, useState } from 'react';
import type { Job, JobStatus } from '../../../src-shared/entities';
import type { UseJobStream } from '../hooks/useJobStream';
import { useT } from '../hooks/useT';
import type { Locale } from '../i18n';
import { selectDetail } from '../store/entity-selectors';
import { useAppStore } from '../store/store';
import { ErrorNotice } from './OutcomeNotice';

interface Props extends UseJobStream {
  jobStatus: JobStatus | null;
}

export function JobProgress(props: Props) {
  const job = useAppStore((s) => selectDetail(s)?.jobs.at(-1));
  return (
    <>
      {job?.status === 'queued' ? <ProfileWait job={job} /> : null}
      {job?.status === 'retry' && job.nextRetryAt ? <RetryWait job={job} at={job.nextRetryAt} /> : null}
      <Progress {...props} />
    </>
  );
}

function Progress({ stream, movements, jobStatus }: Props) {
  const t = useT();
  const generating = jobStatus === 'running' && stream !== null;
  if (movements.length === 0 && !generating) return null;
  const current = jobStatus === 'running' ? movements.length - 1 : -1;
  return (
    <div className="job-progress" data-testid="job-progress">
      {movements.length > 0 ? (
        <ol className="movement-trail" aria-label={t('progress.movements')} data-testid="movement-trail">
          {movements.map((name, i) => (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: a movement can be entered again; its place is its identity.
              key={i}
              className={i === current ? 'movement movement-current' : 'movement'}
              data-testid="movement"
              aria-current={i === current ? 'step' : undefined}
            >
              {name}
            </li>
          ))}
        </ol>
      ) : null}
      {generating ? (
        <span className={`llm-state llm-state-${stream.llm}`} data-testid="llm-state" data-state={stream.llm}>
          {t(`progress.llm.${stream.llm}`)}
          {stream.llm === 'retrying' && stream.attempt > 1 ? t('progress.attempt', { attempt: stream.attempt }) : ''}
        </span>
      ) : null}
    </div>
  );
}

/** A queued job no Worker will take: there is no LLM profile, or not the one it names. */
function ProfileWait({ job }: { job: Job }) {
  const t = useT();
  const ready = useAppStore((s) => s.profilesLoad === 'ready');
  const missing = useAppStore((s) =>
    job.profile === null ? s.profiles.length === 0 : !s.profiles.some((p) => p.name === job.profile),
  );
  const openProfileSetup = useAppStore((s) => s.openProfileSetup);
  if (!ready || !missing) return null;
  return (
    <div className="notice notice-warn job-wait" data-testid="job-waits-profile">
      <p>{job.profile === null ? t('job.noProfile') : t('job.noProfileNamed', { name: job.profile })}</p>
      <button
        type="button"
        className="button button-primary"
        onClick={openProfileSetup}
        data-testid="job-setup-profile"
      >
        {t('job.setUpProfile')}
      </button>
    </div>
  );
}

/** A job waiting to retry: when its next attempt is, counting down, and "Retry now". */
function RetryWait({ job, at }: { job: Job; at: string }) {
  const t = useT();
  const locale = useAppStore((s) => s.locale);
  const retryNow = useAppStore((s) => s.retryNow);
  const now = useNow(1000);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const waitMs = Date.parse(at) - now;

  async function retry() {
    setBusy(true);
    setError(null);
    const failure = await retryNow(job.taskId);
    setBusy(false);
    setError(failure?.message ?? null);
  }

  return (
    <div className="notice job-wait" data-testid="job-retry" data-next-retry-at={at}>
      <p>
        <time dateTime={at} title={new Date(at).toLocaleString(locale)} data-testid="job-retry-when">
          {waitMs > 500 ? t('job.retryAt', { when: relativeTime(waitMs, locale) }) : t('job.retryDue')}
        </time>
      </p>
      <button type="button" className="button" onClick={() => void retry()} disabled={busy} data-testid="job-retry-now">
        {busy ? t('job.retrying') : t('job.retryNow')}
      </button>
      <ErrorNotice error={error} testId="job-retry-error" />
    </div>
  );
}

/** The clock, read again every `intervalMs` while the component is shown. */
function useNow(intervalMs: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** "in 42 seconds", "in 3 minutes", "in 2 hours" — or "42 秒後" — in the UI's language. */
export function relativeTime(ms: number, locale: Locale): string {
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const seconds = Math.round(ms / 1000);
  if (Math.abs(seconds) < 60) return format.format(seconds, 'second');
  const minutes = Math.round(seconds / 60);
  if (Math.abs(minutes) < 60) return format.format(minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (Math.abs(hours) < 24) return format.format(hours, 'hour');
  return format.format(Math.round(hours / 24), 'day');
}

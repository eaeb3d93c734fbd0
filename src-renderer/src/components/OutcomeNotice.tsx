// The notices of a form: what a save came to (a green or a red line, with `data-ok` for the tests), and an error;
// and a job's error in the person's words, with the way to its profile when the profile caused it.
import { type Comment, type Job, WHAT_NOW } from '../../../src-shared/entities';
import { useT } from '../i18n';
import { useAppStore } from '../store/store';

export interface Outcome {
  ok: boolean;
  text: string;
}

export function OutcomeNotice({ outcome, testId }: { outcome: Outcome | null; testId: string }) {
  if (!outcome) return null;
  return (
    <p className={`notice ${outcome.ok ? 'notice-ok' : 'notice-error'}`} data-testid={testId} data-ok={outcome.ok}>
      {outcome.text}
    </p>
  );
}

/** A red line saying what went wrong; nothing when nothing did. */
export function ErrorNotice({ error, testId }: { error: string | null | undefined; testId: string }) {
  if (!error) return null;
  return (
    <p className="notice notice-error" data-testid={testId}>
      {error}
    </p>
  );
}

/**
 * A job's error in the person's words — what went wrong (by its code), how many times it was tried, the technical
 * detail folded away — and the way out: the profile in Settings (or the setup) when the profile caused it, else what
 * to do to try again. `detail`: the text to fold (default the job's error).
 */
export function JobError({ job, detail, testId }: { job: Job | undefined; detail?: string; testId: string }) {
  const t = useT();
  const profileName = useAppStore((s) => job?.profile ?? s.profiles.find((p) => p.isDefault)?.name ?? null);
  const exists = useAppStore((s) => s.profiles.some((p) => p.name === profileName));
  const openProfileSettings = useAppStore((s) => s.openProfileSettings);
  const openProfileSetup = useAppStore((s) => s.openProfileSetup);
  const text = detail ?? job?.error;
  if (!text) return null;
  const code = job?.errorCode;
  const profileCode = code?.startsWith('profile_') ?? false;
  return (
    <div className="notice notice-error job-error" data-testid={testId} data-code={code}>
      <p className="job-error-headline" data-testid="job-error-headline">
        {code ? t(`job.error.${code}`, { name: profileName ?? '?' }) : t('job.error.generic')}
        {job && job.status === 'failed' && job.attempt > 1 ? ` ${t('job.error.attempts', { count: job.attempt })}` : ''}
      </p>
      <details className="job-error-detail">
        <summary>{t('job.error.details')}</summary>
        <pre className="step-pre" data-testid="job-error-detail">
          {text}
        </pre>
      </details>
      {profileCode ? (
        exists && profileName ? (
          <button
            type="button"
            className="button"
            onClick={() => openProfileSettings(profileName)}
            data-testid="job-open-profile"
            data-profile={profileName}
          >
            {t('job.openProfile', { name: profileName })}
          </button>
        ) : (
          <button type="button" className="button" onClick={openProfileSetup} data-testid="job-setup-profile">
            {t('job.setUpProfile')}
          </button>
        )
      ) : job?.status === 'failed' ? (
        <p className="job-error-next">{t('job.error.whatNow')}</p>
      ) : null}
    </div>
  );
}

/**
 * The error comment of a failed job, said once, where it happened in the chat (the task's header does not repeat
 * it): JobError with the comment's text, the English hint main appends left out.
 */
export function ErrorComment({ comment }: { comment: Comment }) {
  const job = useAppStore((s) => s.detail?.jobs.find((j) => j.id === comment.jobId));
  const detail = comment.body.endsWith(WHAT_NOW) ? comment.body.slice(0, -WHAT_NOW.length).trimEnd() : comment.body;
  return <JobError job={job} detail={detail} testId="error-comment" />;
}

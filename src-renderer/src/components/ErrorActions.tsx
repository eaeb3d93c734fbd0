// The fix at hand under a failed model call: Retry (the task's stopped job runs again from where it stopped) and Edit
// profile (Settings opens at that profile's form, at the field that fixes it, and offers Retry again once saved) —
// or, when the profile is gone, the setup. And that second offer, shown in Settings after the save.
import { useEffect, useRef } from 'react';
import type { Job } from '../../../src-shared/entities';
import { isStopped, useRetryTask } from '../hooks/useRetryTask';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';
import { type ErrorCase, fixField } from './error-words';

interface Props {
  job: Job;
  found: ErrorCase;
  /** The job's profile when it exists; null when it does not (then the setup is offered instead). */
  profile: string | null;
}

export function ErrorActions({ job, found, profile }: Props) {
  const t = useT();
  const { retry, busy, error, latest } = useRetryTask(job.taskId);
  const openSettingsAt = useAppStore((s) => s.openSettingsAt);
  const openProfileSetup = useAppStore((s) => s.openProfileSetup);
  const stopped = isStopped(job, latest);
  // A job waiting to retry has its own "Retry now" beside its countdown (JobProgress): not offered twice.
  const retryable = stopped && job.status === 'failed';
  const model = found.kind === 'model';
  if (!retryable && !model) return null;

  function editProfile(name: string) {
    const field = fixField(found);
    openSettingsAt({
      section: 'profiles',
      profile: name,
      ...(field ? { field } : {}),
      ...(stopped ? { retryTaskId: job.taskId } : {}),
    });
  }

  return (
    <>
      <div className="error-actions">
        {retryable ? (
          <button
            type="button"
            className="button button-primary"
            disabled={busy}
            onClick={() => void retry()}
            data-testid="job-retry-run"
          >
            {busy ? t('modelError.retrying') : t('modelError.retry')}
          </button>
        ) : null}
        {!model ? null : profile ? (
          <button
            type="button"
            className="button"
            onClick={() => editProfile(profile)}
            data-testid="job-open-profile"
            data-profile={profile}
          >
            {t('modelError.editProfile', { name: profile })}
          </button>
        ) : (
          <button type="button" className="button" onClick={openProfileSetup} data-testid="job-setup-profile">
            {t('job.setUpProfile')}
          </button>
        )}
      </div>
      <RetryRefused error={error} testId="job-retry-error" />
    </>
  );
}

/** In Settings, once the profile a stopped task needed is saved: the offer to retry it, focused, closing Settings. */
export function SavedRetryPrompt({
  taskId,
  profile,
  onRetried,
}: {
  taskId: string;
  profile: string;
  onRetried(): void;
}) {
  const t = useT();
  const { retry, busy, error, latest } = useRetryTask(taskId);
  const button = useRef<HTMLButtonElement>(null);
  const retryable = latest?.status === 'failed' || latest?.status === 'retry';
  useEffect(() => button.current?.focus(), []);
  if (!retryable && !busy) return null;

  async function run() {
    if (await retry()) onRetried();
  }

  return (
    <div className="notice notice-ok saved-retry" role="status" data-testid="profile-saved-retry">
      <p>{t('modelError.saved', { name: profile })}</p>
      <button
        ref={button}
        type="button"
        className="button button-primary"
        disabled={busy}
        onClick={() => void run()}
        data-testid="profile-saved-retry-run"
      >
        {busy ? t('modelError.retrying') : t('modelError.savedRetry')}
      </button>
      <RetryRefused error={error} testId="profile-saved-retry-error" />
    </div>
  );
}

/** Why main refused the retry (e.g. a job started meanwhile), announced where the button is. */
function RetryRefused({ error, testId }: { error: string | null; testId: string }) {
  const t = useT();
  if (!error) return null;
  return (
    <p className="notice notice-error" role="alert" data-testid={testId}>
      {t('modelError.retryFailed', { error })}
    </p>
  );
}

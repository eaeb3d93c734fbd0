// The notices of a form: what a save came to (a green or a red line, with `data-ok` for the tests), and an error;
// and a job's error, with the way to its profile when the profile caused it.
import type { Job } from '../../../src-shared/entities';
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
 * A job's error, and when its profile caused it (a refused key, an unreachable server, an unknown model, a missing
 * profile) a button to that profile in Settings — or to the setup when there is no profile at all.
 */
export function JobErrorNotice({ job }: { job: Job | undefined }) {
  const t = useT();
  const profileName = useAppStore((s) => job?.profile ?? s.profiles.find((p) => p.isDefault)?.name ?? null);
  const exists = useAppStore((s) => s.profiles.some((p) => p.name === profileName));
  const openProfileSettings = useAppStore((s) => s.openProfileSettings);
  const openProfileSetup = useAppStore((s) => s.openProfileSetup);
  if (!job?.error) return null;
  const code = job.errorCode;
  return (
    <div className="notice notice-error job-error" data-testid="job-error" data-code={code}>
      {code && profileName ? <p>{t(`job.error.${code}`, { name: profileName })}</p> : null}
      <p className="job-error-detail">{job.error}</p>
      {code ? (
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
      ) : null}
    </div>
  );
}

// The composer's LLM profile for the task's next job: a picker while sending would start one (a follow-up or an
// answer), with the task's profile selected until the person picks another; while a message would join a job that
// exists, a note that it keeps the profile that job runs on. Shown only when there is another profile to pick.
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';

interface Props {
  taskId: string;
  /** The task's own profile (null: the default one). */
  taskProfile: string | null;
  /** Sending starts a new job: the picker; else the note about the job it joins, which runs on `jobProfile`. */
  startsJob: boolean;
  jobProfile: string | null;
}

export function ComposerProfile({ taskId, taskProfile, startsJob, jobProfile }: Props) {
  const t = useT();
  const profiles = useAppStore((s) => s.profiles);
  const picked = useAppStore((s) => s.followupProfiles[taskId]);
  const pick = useAppStore((s) => s.pickFollowupProfile);
  if (profiles.length < 2) return null;
  if (!startsJob) {
    return (
      <span className="composer-profile-note" data-testid="composer-profile-joins">
        {jobProfile ? t('composer.profile.joins', { profile: jobProfile }) : t('composer.profile.joinsDefault')}
      </span>
    );
  }
  const current = picked ?? taskProfile ?? profiles.find((p) => p.isDefault)?.name ?? '';
  const known = profiles.some((p) => p.name === current);
  return (
    <label className="composer-profile" title={t('composer.profile.title')}>
      <span>{t('composer.profile.label')}</span>
      <select value={current} onChange={(e) => pick(taskId, e.target.value)} data-testid="composer-profile">
        {known ? null : (
          <option value={current} disabled>
            {t('composer.profile.missing', { name: current })}
          </option>
        )}
        {profiles.map((p) => (
          <option key={p.name} value={p.name}>
            {t(p.isDefault ? 'composer.profile.default' : 'composer.profile.option', { name: p.name, model: p.model })}
          </option>
        ))}
      </select>
    </label>
  );
}

// One LLM profile in Settings: its name, kind, model, endpoint and key (as "•••• 1234"), with Test, Edit, Make default and
// Delete; a profile from the environment is shown read-only, with Test alone. The profile Settings was opened at is
// scrolled into view and marked.
import { useEffect, useRef, useState } from 'react';
import type { ProfileView } from '../../../src-shared/contract';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';
import { ErrorNotice } from './OutcomeNotice';
import { ActsAs, keyLabel, kindLabel } from './ProfileForm';

interface Props {
  profile: ProfileView;
  /** Settings was opened at this profile. */
  focused?: boolean;
  onEdit(): void;
}

export function ProfileItem({ profile, focused = false, onEdit }: Props) {
  const item = useRef<HTMLLIElement>(null);
  const test = useAppStore((s) => s.profileTests[profile.name]);
  const testProfile = useAppStore((s) => s.testProfile);
  const deleteProfile = useAppStore((s) => s.deleteProfile);
  const saveProfile = useAppStore((s) => s.saveProfile);
  const [error, setError] = useState<string | null>(null);
  const saved = profile.source === 'saved';
  const t = useT();

  useEffect(() => {
    if (focused) item.current?.scrollIntoView({ block: 'center' });
  }, [focused]);

  async function remove() {
    if (!window.confirm(t('settings.deleteConfirm', { name: profile.name }))) return;
    const failure = await deleteProfile(profile.name);
    setError(failure?.message ?? null);
  }

  async function makeDefault() {
    // Everything as it is, key kept (apiKey absent), and made default.
    const { name, kind, baseURL, model, contextWindow, temperature, parallelToolCalls, media } = profile;
    const { maxReplyBytes, maxToolArgumentBytes, maxCallSeconds } = profile;
    const outcome = await saveProfile({
      name,
      kind,
      baseURL,
      model,
      ...(contextWindow !== undefined ? { contextWindow } : {}),
      ...(temperature !== undefined ? { temperature } : {}),
      ...(parallelToolCalls !== undefined ? { parallelToolCalls } : {}),
      ...(media !== undefined ? { media } : {}),
      ...(maxReplyBytes !== undefined ? { maxReplyBytes } : {}),
      ...(maxToolArgumentBytes !== undefined ? { maxToolArgumentBytes } : {}),
      ...(maxCallSeconds !== undefined ? { maxCallSeconds } : {}),
      makeDefault: true,
    });
    setError(outcome.ok ? null : outcome.error.message);
  }

  return (
    <li
      ref={item}
      className={focused ? 'profile-item profile-item-focused' : 'profile-item'}
      data-testid="profile-item"
      data-name={profile.name}
      data-default={profile.isDefault}
      data-focused={focused}
    >
      <div className="profile-head">
        <strong data-testid="profile-name">{profile.name}</strong>
        {profile.isDefault ? <span className="tag tag-default">{t('settings.default')}</span> : null}
        {saved ? null : <span className="tag">{t('settings.fromEnv')}</span>}
      </div>
      <div className="profile-meta">
        <span data-testid="profile-kind" data-kind={profile.kind}>
          {kindLabel(profile.kind, t)}
          <ActsAs kind={profile.kind} baseURL={profile.baseURL} t={t} />
        </span>{' '}
        · <span data-testid="profile-model">{profile.model}</span> · <span>{profile.baseURL}</span> ·{' '}
        <span data-testid="profile-key">{keyLabel(profile, t)}</span>
      </div>
      <div className="profile-actions">
        <button
          type="button"
          className="button"
          onClick={() => void testProfile(profile.name)}
          disabled={test?.state === 'running'}
          data-testid="profile-test"
        >
          {test?.state === 'running' ? t('settings.testing') : t('settings.test')}
        </button>
        {saved ? (
          <>
            <button type="button" className="button" onClick={onEdit} data-testid="profile-edit">
              {t('settings.edit')}
            </button>
            {profile.isDefault ? null : (
              <button
                type="button"
                className="button"
                onClick={() => void makeDefault()}
                data-testid="profile-make-default"
              >
                {t('settings.makeDefault')}
              </button>
            )}
            <button
              type="button"
              className="button button-danger"
              onClick={() => void remove()}
              data-testid="profile-delete"
            >
              {t('settings.delete')}
            </button>
          </>
        ) : null}
      </div>
      {test?.state === 'done' ? (
        <div
          className={`notice ${test.ok ? 'notice-ok' : 'notice-error'}`}
          data-testid="profile-test-result"
          data-ok={test.ok}
        >
          {test.ok
            ? t('settings.connected', {
                models: test.models.length > 0 ? test.models.join(', ') : t('settings.noneListed'),
              })
            : t('settings.testFailed', { error: test.error ?? t('settings.unknownError') })}
        </div>
      ) : null}
      <ErrorNotice error={error} testId="profile-item-error" />
    </li>
  );
}

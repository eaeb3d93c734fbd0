// Settings: the LLM profiles: list, add, edit, delete, test the connection, make default. The env profile is shown
// read-only. The API key field is write-only: a stored key shows as "•••• 1234", and a new value replaces it. Opened
// at one profile (a job's error links here), that profile is scrolled to and, when saved in the app, opened in its form.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ProfileView } from '../../../src-shared/contract';
import { useT } from '../i18n';
import { useAppStore } from '../store/store';
import { ErrorNotice } from './OutcomeNotice';
import { ProfileForm } from './ProfileForm';
import { ProfileItem } from './ProfileItem';

type Editing = { kind: 'none' } | { kind: 'new' } | { kind: 'edit'; profile: ProfileView };

/** The profiles, and below them the dialog's last actions: Add profile and Done (a form while one is edited). */
export function ProfileSettings({ onClose }: { onClose(): void }) {
  const profiles = useAppStore((s) => s.profiles);
  const profileErrors = useAppStore((s) => s.profileErrors);
  const profilesError = useAppStore((s) => s.profilesError);
  const focus = useAppStore((s) => s.settingsProfile);
  const [editing, setEditing] = useState<Editing>({ kind: 'none' });
  const stopEditing = useCallback(() => setEditing({ kind: 'none' }), []);

  // Once per request: the profiles may arrive after it, and a save reloads them without asking again.
  const opened = useRef<string | null>(null);
  useEffect(() => {
    const profile = profiles.find((p) => p.name === focus);
    if (!profile || opened.current === focus) return;
    opened.current = focus;
    if (profile.source === 'saved') setEditing({ kind: 'edit', profile });
  }, [focus, profiles]);
  const t = useT();
  return (
    <>
      <h3 className="settings-section">{t('settings.profiles')}</h3>
      <ErrorNotice error={profilesError} testId="profiles-error" />
      {profileErrors.map((e) => (
        <ErrorNotice key={`${e.file}:${e.message}`} error={e.message} testId="profiles-file-error" />
      ))}
      {profiles.length === 0 ? (
        <p className="empty" data-testid="profiles-empty">
          {t('settings.profilesEmpty')}
        </p>
      ) : (
        <ul className="profile-list">
          {profiles.map((p) => (
            <ProfileItem
              key={p.name}
              profile={p}
              focused={p.name === focus}
              onEdit={() => setEditing({ kind: 'edit', profile: p })}
            />
          ))}
        </ul>
      )}
      {editing.kind === 'none' ? (
        <div className="dialog-actions">
          <button
            type="button"
            className="button"
            onClick={() => setEditing({ kind: 'new' })}
            data-testid="profile-add"
          >
            {t('settings.addProfile')}
          </button>
          <button type="button" className="button button-primary" onClick={onClose} data-testid="settings-close">
            {t('settings.done')}
          </button>
        </div>
      ) : (
        <ProfileForm
          key={editing.kind === 'edit' ? editing.profile.name : '(new)'}
          profile={editing.kind === 'edit' ? editing.profile : null}
          onDone={stopEditing}
        />
      )}
    </>
  );
}

// Settings: the LLM profiles: list, add, edit, delete, test the connection, make default. The env profile is shown
// read-only. The API key field is write-only: a stored key shows as "•••• 1234", and a new value replaces it. Opened
// at one profile (a failed model call's Edit profile), that profile is marked and, when saved in the app, opened in
// its form, scrolled to and focused at the field that fixes it; once saved, Retry of the stopped task is offered.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ProfileView } from '../../../src-shared/contract';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';
import { SavedRetryPrompt } from './ErrorActions';
import { ErrorNotice } from './OutcomeNotice';
import { ProfileForm } from './ProfileForm';
import { ProfileItem } from './ProfileItem';

type Editing = { kind: 'none' } | { kind: 'new' } | { kind: 'edit'; profile: ProfileView };

/** The profiles, and below them Add profile (a form while one is edited). `onClose` closes Settings (after a retry). */
export function ProfileSettings({ onClose }: { onClose(): void }) {
  const profiles = useAppStore((s) => s.profiles);
  const profileErrors = useAppStore((s) => s.profileErrors);
  const profilesError = useAppStore((s) => s.profilesError);
  const at = useAppStore((s) => (s.settingsAt?.section === 'profiles' ? s.settingsAt : null));
  const focus = at?.profile ?? null;
  const [editing, setEditing] = useState<Editing>({ kind: 'none' });
  // The profile saved while a stopped task waits on it: Settings offers to retry that task.
  const [saved, setSaved] = useState<string | null>(null);
  const done = useCallback(
    (profile?: ProfileView) => {
      setEditing({ kind: 'none' });
      if (profile && profile.name === at?.profile && at.retryTaskId) setSaved(profile.name);
    },
    [at],
  );

  // Once per request: the profiles may arrive after it, and a save reloads them without asking again.
  const opened = useRef<typeof at>(null);
  useEffect(() => {
    const profile = profiles.find((p) => p.name === focus);
    if (!profile || !at || opened.current === at) return;
    opened.current = at;
    setSaved(null);
    if (profile.source === 'saved') setEditing({ kind: 'edit', profile });
  }, [at, focus, profiles]);
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
      {saved && at?.retryTaskId ? (
        <SavedRetryPrompt taskId={at.retryTaskId} profile={saved} onRetried={onClose} />
      ) : null}
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
        </div>
      ) : (
        <ProfileForm
          key={editing.kind === 'edit' ? editing.profile.name : '(new)'}
          profile={editing.kind === 'edit' ? editing.profile : null}
          onDone={done}
          openedAt={
            editing.kind === 'edit' && editing.profile.name === at?.profile ? { field: at.field ?? null } : undefined
          }
        />
      )}
    </>
  );
}

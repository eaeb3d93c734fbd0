// Settings: the language and theme, OS notifications, a workspace's Tool Policy, the Auto Prompter's rules, the LLM
// profiles, and where the data lives. Profiles: list, add, edit, delete, test the connection, make default. The env
// profile is shown read-only. The API key field is write-only: a stored key shows as "•••• 1234", and a new value
// replaces it.
import { useCallback, useEffect, useId, useState } from 'react';
import type { ProfileView } from '../../../src-shared/contract';
import type { OpInput } from '../api/client';
import { LOCALE_NAMES, LOCALES, type Locale, useT } from '../i18n';
import { useAppStore } from '../store/store';
import { THEME_CHOICES, type ThemeChoice } from '../theme';
import { NotificationSettings } from './NotificationSettings';
import { type Outcome, OutcomeNotice } from './OutcomeNotice';
import { keyLabel, ProfileForm } from './ProfileForm';
import { ToolPolicyEditor } from './ToolPolicyEditor';

interface Props {
  onClose(): void;
}

type Editing = { kind: 'none' } | { kind: 'new' } | { kind: 'edit'; profile: ProfileView };

export function SettingsDialog({ onClose }: Props) {
  const profiles = useAppStore((s) => s.profiles);
  const profileErrors = useAppStore((s) => s.profileErrors);
  const profilesError = useAppStore((s) => s.profilesError);
  const loadProfiles = useAppStore((s) => s.loadProfiles);
  const loadAppSettings = useAppStore((s) => s.loadAppSettings);
  const [editing, setEditing] = useState<Editing>({ kind: 'none' });
  const headingId = useId();
  const t = useT();
  const stopEditing = useCallback(() => setEditing({ kind: 'none' }), []);

  useEffect(() => {
    void loadProfiles();
    void loadAppSettings();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [loadProfiles, loadAppSettings, onClose]);

  return (
    <div className="overlay">
      <div className="dialog dialog-wide" role="dialog" aria-modal="true" aria-labelledby={headingId}>
        <div data-testid="settings-dialog">
          <h2 id={headingId}>{t('settings.title')}</h2>
          <Appearance />
          <NotificationSettings />
          <ToolPolicyEditor />
          <AutoPrompterSection />
          <h3 className="settings-section">{t('settings.profiles')}</h3>
          {profilesError ? (
            <p className="notice notice-error" data-testid="profiles-error">
              {profilesError}
            </p>
          ) : null}
          {profileErrors.map((e) => (
            <p key={`${e.file}:${e.message}`} className="notice notice-error" data-testid="profiles-file-error">
              {e.message}
            </p>
          ))}
          {profiles.length === 0 ? (
            <p className="empty" data-testid="profiles-empty">
              {t('settings.profilesEmpty')}
            </p>
          ) : (
            <ul className="profile-list">
              {profiles.map((p) => (
                <ProfileItem key={p.name} profile={p} onEdit={() => setEditing({ kind: 'edit', profile: p })} />
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
          <DataLocation />
        </div>
      </div>
    </div>
  );
}

function Appearance() {
  const locale = useAppStore((s) => s.locale);
  const theme = useAppStore((s) => s.theme);
  const setLocale = useAppStore((s) => s.setLocale);
  const setTheme = useAppStore((s) => s.setTheme);
  const t = useT();
  return (
    <>
      <h3 className="settings-section">{t('settings.appearance')}</h3>
      <div className="field-row">
        <label className="field">
          <span>{t('settings.language')}</span>
          <select value={locale} onChange={(e) => setLocale(e.target.value as Locale)} data-testid="settings-locale">
            {LOCALES.map((l) => (
              <option key={l} value={l} lang={l}>
                {LOCALE_NAMES[l]}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('settings.theme')}</span>
          <select value={theme} onChange={(e) => setTheme(e.target.value as ThemeChoice)} data-testid="settings-theme">
            {THEME_CHOICES.map((choice) => (
              <option key={choice} value={choice}>
                {t(`settings.theme.${choice}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
    </>
  );
}

/** Where MAESTRO keeps its data; inside Electron a button shows the folder (over HTTP the host's folder is not ours). */
function DataLocation() {
  const view = useAppStore((s) => s.appSettings);
  const loadError = useAppStore((s) => s.appSettingsError);
  const canOpen = useAppStore((s) => s.canOpenDataFolder);
  const open = useAppStore((s) => s.openDataFolder);
  const [error, setError] = useState<string | null>(null);
  const t = useT();
  return (
    <section data-testid="data-location">
      <h3 className="settings-section">{t('settings.data')}</h3>
      {loadError ? (
        <p className="notice notice-error" data-testid="settings-load-error">
          {loadError}
        </p>
      ) : null}
      {view ? (
        <div className="data-location">
          <span className="field-hint">{t('settings.data.about')}</span>
          <code className="data-dir-path" data-testid="data-dir">
            {view.dataDir}
          </code>
          {canOpen ? (
            <button
              type="button"
              className="button"
              onClick={async () => setError((await open())?.message ?? null)}
              data-testid="open-data-folder"
            >
              {t('settings.data.open')}
            </button>
          ) : null}
        </div>
      ) : null}
      {error ? (
        <p className="notice notice-error" data-testid="open-data-folder-error">
          {error}
        </p>
      ) : null}
    </section>
  );
}

/** The default workspace's Auto Prompter rules: on/off and the ordered rules as JSON (format: tools/README.md). */
function AutoPrompterSection() {
  const view = useAppStore((s) => s.autoPrompter);
  const loadError = useAppStore((s) => s.autoPrompterError);
  const load = useAppStore((s) => s.loadAutoPrompter);
  const save = useAppStore((s) => s.saveAutoPrompter);
  const [enabled, setEnabled] = useState(false);
  const [rules, setRules] = useState('[]');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);
  const t = useT();

  useEffect(() => {
    void load();
  }, [load]);
  // What was loaded or saved becomes the form's content.
  useEffect(() => {
    if (!view) return;
    setEnabled(view.settings.enabled);
    setRules(JSON.stringify(view.settings.rules, null, 2));
  }, [view]);

  async function submit() {
    let parsed: unknown;
    try {
      parsed = JSON.parse(rules);
    } catch (error) {
      setOutcome({ ok: false, text: t('settings.autoPrompter.badJson', { error: (error as Error).message }) });
      return;
    }
    if (!Array.isArray(parsed)) {
      setOutcome({ ok: false, text: t('settings.autoPrompter.notList') });
      return;
    }
    setBusy(true);
    // The rules are checked in main against the file's schema; its message names the field (rules.2.match…).
    const failure = await save({ enabled, rules: parsed as OpInput<'saveAutoPrompter'>['rules'] });
    setBusy(false);
    setOutcome(failure ? { ok: false, text: failure.message } : { ok: true, text: t('settings.autoPrompter.saved') });
  }

  return (
    <section data-testid="auto-prompter-settings">
      <h3 className="settings-section">{t('settings.autoPrompter')}</h3>
      {loadError ? (
        <p className="notice notice-error" data-testid="auto-prompter-load-error">
          {loadError}
        </p>
      ) : null}
      {view && view.workspacePath === null ? (
        <p className="field-hint" data-testid="auto-prompter-no-workspace">
          {t('settings.autoPrompter.noWorkspace')}
        </p>
      ) : null}
      {view?.workspacePath ? (
        <>
          <p className="field-hint">{t('settings.autoPrompter.about', { workspace: view.workspacePath })}</p>
          {view.error ? (
            <p className="notice notice-error" data-testid="auto-prompter-file-error">
              {view.error}
            </p>
          ) : null}
          <label className="field-check">
            <input
              type="checkbox"
              checked={enabled}
              onChange={(e) => setEnabled(e.target.checked)}
              data-testid="auto-prompter-enabled"
            />
            {t('settings.autoPrompter.enabled')}
          </label>
          <label className="field">
            <span>{t('settings.autoPrompter.rules')}</span>
            <textarea
              rows={8}
              spellCheck={false}
              value={rules}
              onChange={(e) => setRules(e.target.value)}
              aria-invalid={outcome?.ok === false}
              data-testid="auto-prompter-rules"
            />
          </label>
          <OutcomeNotice outcome={outcome} testId="auto-prompter-outcome" />
          <div className="dialog-actions">
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => void submit()}
              data-testid="auto-prompter-save"
            >
              {t('settings.autoPrompter.save')}
            </button>
          </div>
        </>
      ) : null}
    </section>
  );
}

function ProfileItem({ profile, onEdit }: { profile: ProfileView; onEdit(): void }) {
  const test = useAppStore((s) => s.profileTests[profile.name]);
  const testProfile = useAppStore((s) => s.testProfile);
  const deleteProfile = useAppStore((s) => s.deleteProfile);
  const saveProfile = useAppStore((s) => s.saveProfile);
  const [error, setError] = useState<string | null>(null);
  const saved = profile.source === 'saved';
  const t = useT();

  async function remove() {
    if (!window.confirm(t('settings.deleteConfirm', { name: profile.name }))) return;
    const failure = await deleteProfile(profile.name);
    setError(failure?.message ?? null);
  }

  async function makeDefault() {
    // Everything as it is, key kept (apiKey absent), and made default.
    const { name, baseURL, model, contextWindow, temperature, parallelToolCalls } = profile;
    const outcome = await saveProfile({
      name,
      baseURL,
      model,
      ...(contextWindow !== undefined ? { contextWindow } : {}),
      ...(temperature !== undefined ? { temperature } : {}),
      ...(parallelToolCalls !== undefined ? { parallelToolCalls } : {}),
      makeDefault: true,
    });
    setError(outcome.ok ? null : outcome.error.message);
  }

  return (
    <li className="profile-item" data-testid="profile-item" data-name={profile.name} data-default={profile.isDefault}>
      <div className="profile-head">
        <strong data-testid="profile-name">{profile.name}</strong>
        {profile.isDefault ? <span className="tag tag-default">{t('settings.default')}</span> : null}
        {saved ? null : <span className="tag">{t('settings.fromEnv')}</span>}
      </div>
      <div className="profile-meta">
        <span data-testid="profile-model">{profile.model}</span> · <span>{profile.baseURL}</span> ·{' '}
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
      {error ? (
        <p className="notice notice-error" data-testid="profile-item-error">
          {error}
        </p>
      ) : null}
    </li>
  );
}

// Settings' Notifications section: whether the desktop app shows OS notifications, with sound, and for which kinds
// of notice. Each switch saves at once to the data dir's settings.json; main reads it for every notice.
import { useEffect, useState } from 'react';
import { NOTICE_KINDS, type NotificationSettings as Prefs } from '../../../src-shared/settings';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';
import { ErrorNotice, type Outcome, OutcomeNotice } from './OutcomeNotice';
import { CheckField } from './SettingsFields';

export function NotificationSettings() {
  const view = useAppStore((s) => s.appSettings);
  const save = useAppStore((s) => s.saveAppSettings);
  const [prefs, setPrefs] = useState<Prefs | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const t = useT();

  useEffect(() => {
    if (view) setPrefs(view.settings.notifications);
  }, [view]);

  async function change(next: Prefs) {
    setPrefs(next);
    // The whole file: a part left out would go back to its default.
    const failure = await save({ ...view?.settings, notifications: next });
    setOutcome(failure ? { ok: false, text: failure.message } : { ok: true, text: t('settings.notifications.saved') });
  }

  if (!view || !prefs) return null;
  return (
    <section data-testid="notification-settings">
      <h3 className="settings-section">{t('settings.notifications')}</h3>
      <p className="field-hint">{t('settings.notifications.about')}</p>
      <ErrorNotice error={view.error} testId="settings-file-error" />
      <CheckField checked={prefs.os} onChange={(os) => void change({ ...prefs, os })} testId="notifications-os">
        {t('settings.notifications.os')}
      </CheckField>
      <CheckField
        checked={prefs.sound}
        disabled={!prefs.os}
        onChange={(sound) => void change({ ...prefs, sound })}
        testId="notifications-sound"
      >
        {t('settings.notifications.sound')}
      </CheckField>
      <fieldset className="notification-kinds" disabled={!prefs.os}>
        <legend>{t('settings.notifications.kinds')}</legend>
        {NOTICE_KINDS.map((kind) => (
          <CheckField
            key={kind}
            checked={prefs.kinds[kind]}
            onChange={(on) => void change({ ...prefs, kinds: { ...prefs.kinds, [kind]: on } })}
            testId={`notifications-kind-${kind}`}
          >
            {t(`settings.notifications.kind.${kind}`)}
          </CheckField>
        ))}
      </fieldset>
      <OutcomeNotice outcome={outcome} testId="notifications-outcome" />
    </section>
  );
}

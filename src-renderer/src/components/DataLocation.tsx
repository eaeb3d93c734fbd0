// Settings: where MAESTRO keeps its data.
import { useState } from 'react';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';
import { ErrorNotice } from './OutcomeNotice';

/** Where MAESTRO keeps its data; inside Electron a button shows the folder (over HTTP the host's folder is not ours). */
export function DataLocation() {
  const view = useAppStore((s) => s.appSettings);
  const loadError = useAppStore((s) => s.appSettingsError);
  const canOpen = useAppStore((s) => s.canOpenDataFolder);
  const open = useAppStore((s) => s.openDataFolder);
  const [error, setError] = useState<string | null>(null);
  const t = useT();
  return (
    <section data-testid="data-location">
      <h3 className="settings-section">{t('settings.data')}</h3>
      <ErrorNotice error={loadError} testId="settings-load-error" />
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
      <ErrorNotice error={error} testId="open-data-folder-error" />
    </section>
  );
}

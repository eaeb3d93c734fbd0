// Settings: where MAESTRO keeps its data, how much room it takes, how long finished tasks keep their full activity,
// and "Clean up now".
import { useEffect, useState } from 'react';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';
import { formatBytes } from './CheckpointSettingsSection';
import { ErrorNotice, type Outcome, OutcomeNotice } from './OutcomeNotice';
import { SaveActions } from './SettingsFields';

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
      {view ? <StorageUpkeep /> : null}
    </section>
  );
}

/** The room the data takes, the retention of finished tasks' activity, and a clean-up now. */
function StorageUpkeep() {
  const t = useT();
  const view = useAppStore((s) => s.appSettings);
  const save = useAppStore((s) => s.saveAppSettings);
  const usage = useAppStore((s) => s.storageUsage);
  const loadUsage = useAppStore((s) => s.loadStorageUsage);
  const cleanUp = useAppStore((s) => s.cleanUpStorage);
  const [days, setDays] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  useEffect(() => {
    if (view) setDays(String(view.settings.retention.activityDays));
  }, [view]);
  useEffect(() => {
    void loadUsage();
  }, [loadUsage]);
  if (!view) return null;

  async function submit() {
    if (!view) return;
    const value = Number(days.trim());
    if (days.trim() === '' || !Number.isInteger(value) || value < 0 || value > 3650) {
      setOutcome({ ok: false, text: t('settings.data.badDays', { value: days || '""' }) });
      return;
    }
    setBusy(true);
    const failure = await save({ ...view.settings, retention: { activityDays: value } });
    setBusy(false);
    setOutcome(failure ? { ok: false, text: failure.message } : { ok: true, text: t('settings.data.saved') });
  }

  async function clean() {
    setBusy(true);
    const result = await cleanUp();
    setBusy(false);
    setOutcome(
      result.ok
        ? { ok: true, text: t('settings.data.cleanedUp', { freed: formatBytes(result.freed) }) }
        : { ok: false, text: result.error.message },
    );
  }

  return (
    <div className="storage-upkeep">
      <label className="field">
        <span>{t('settings.data.activityDays')}</span>
        <input
          inputMode="numeric"
          value={days}
          onChange={(e) => setDays(e.target.value)}
          aria-describedby="retention-about"
          data-testid="retention-days"
        />
      </label>
      <p className="field-hint" id="retention-about">
        {t('settings.data.activityAbout')}
      </p>
      <SaveActions busy={busy} onSave={() => void submit()} testId="retention-save" label={t('settings.data.save')} />
      {usage?.data ? (
        <p className="field-hint" data-testid="storage-usage" data-bytes={usage.data.total}>
          {t('settings.data.usage', {
            total: formatBytes(usage.data.total),
            count: usage.data.tasks,
            database: formatBytes(usage.data.database + usage.data.wal),
            runs: formatBytes(usage.data.runs),
            checkpoints: formatBytes(usage.data.checkpoints),
          })}
        </p>
      ) : null}
      <ErrorNotice
        error={usage?.error ? t('settings.data.usageUnknown', { message: usage.error }) : null}
        testId="storage-usage-error"
      />
      <div className="dialog-actions">
        <button type="button" className="button" disabled={busy} onClick={() => void clean()} data-testid="clean-up">
          {t('settings.data.cleanUp')}
        </button>
      </div>
      <OutcomeNotice outcome={outcome} testId="storage-outcome" />
    </div>
  );
}

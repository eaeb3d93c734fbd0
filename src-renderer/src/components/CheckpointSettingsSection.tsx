// Settings' Checkpoints section: whether checkpoints are taken, the largest file a snapshot keeps (in MB), how many
// are kept per task and for how many days, whether a succeeded job commits what it changed (P2.21), saved together to
// settings.json's `checkpoints`; and how much of the disk the checkpoints take, and where.
import { useEffect, useState } from 'react';
import type { CheckpointSettings } from '../../../src-shared/checkpoints';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';
import { ErrorNotice, type Outcome, OutcomeNotice } from './OutcomeNotice';
import { CheckField, SaveActions } from './SettingsFields';

const MB = 1024 * 1024;
type NumberField = 'maxFileBytes' | 'keepPerTask' | 'keepDays';
const NUMBER_FIELDS: readonly NumberField[] = ['maxFileBytes', 'keepPerTask', 'keepDays'];
/** The unit each number is typed in: a file's size in MB, the others as they are. */
const UNIT: Record<NumberField, number> = { maxFileBytes: MB, keepPerTask: 1, keepDays: 1 };
const LABEL = {
  maxFileBytes: 'settings.checkpoints.maxFileMb',
  keepPerTask: 'settings.checkpoints.keepPerTask',
  keepDays: 'settings.checkpoints.keepDays',
} as const;

/** The typed numbers as settings; the first field that is not a number when it is not. */
export function readCheckpointFields(
  base: CheckpointSettings,
  text: Record<NumberField, string>,
): { ok: true; settings: CheckpointSettings } | { ok: false; field: NumberField } {
  const settings = { ...base };
  for (const field of NUMBER_FIELDS) {
    const value = Number(text[field].trim());
    if (text[field].trim() === '' || !Number.isFinite(value)) return { ok: false, field };
    settings[field] = Math.round(value * UNIT[field]);
  }
  return { ok: true, settings };
}

const asText = (s: CheckpointSettings): Record<NumberField, string> => ({
  maxFileBytes: String(Math.round((s.maxFileBytes / MB) * 100) / 100),
  keepPerTask: String(s.keepPerTask),
  keepDays: String(s.keepDays),
});

export function CheckpointSettingsSection() {
  const t = useT();
  const view = useAppStore((s) => s.appSettings);
  const save = useAppStore((s) => s.saveAppSettings);
  const usage = useAppStore((s) => s.checkpointUsage);
  const loadUsage = useAppStore((s) => s.loadCheckpointUsage);
  const [prefs, setPrefs] = useState<CheckpointSettings | null>(null);
  const [text, setText] = useState<Record<NumberField, string> | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  useEffect(() => {
    if (!view) return;
    setPrefs(view.settings.checkpoints);
    setText(asText(view.settings.checkpoints));
  }, [view]);
  useEffect(() => {
    void loadUsage();
  }, [loadUsage]);

  if (!view || !prefs || !text) return null;

  async function submit() {
    if (!view || !prefs || !text) return;
    const read = readCheckpointFields(prefs, text);
    if (!read.ok) {
      setOutcome({ ok: false, text: `${t(LABEL[read.field])}: ${text[read.field] || '""'}` });
      return;
    }
    setBusy(true);
    const failure = await save({ ...view.settings, checkpoints: read.settings });
    setBusy(false);
    setOutcome(failure ? { ok: false, text: failure.message } : { ok: true, text: t('settings.checkpoints.saved') });
  }

  return (
    <section data-testid="checkpoint-settings">
      <h3 className="settings-section">{t('settings.checkpoints')}</h3>
      <p className="field-hint">{t('settings.checkpoints.about')}</p>
      <CheckField
        checked={prefs.enabled}
        onChange={(enabled) => setPrefs({ ...prefs, enabled })}
        testId="checkpoints-enabled"
      >
        {t('settings.checkpoints.enabled')}
      </CheckField>
      <div className="field-row">
        {NUMBER_FIELDS.map((field) => (
          <label className="field" key={field}>
            <span>{t(LABEL[field])}</span>
            <input
              inputMode="decimal"
              value={text[field]}
              disabled={!prefs.enabled}
              onChange={(e) => setText({ ...text, [field]: e.target.value })}
              data-testid={`checkpoints-${field}`}
            />
          </label>
        ))}
      </div>
      <CheckField
        checked={prefs.commitOnSuccess}
        onChange={(commitOnSuccess) => setPrefs({ ...prefs, commitOnSuccess })}
        testId="checkpoints-commit"
      >
        {t('settings.checkpoints.commitOnSuccess')}
      </CheckField>
      <SaveActions
        busy={busy}
        onSave={() => void submit()}
        testId="checkpoints-save"
        label={t('settings.checkpoints.save')}
      />
      <OutcomeNotice outcome={outcome} testId="checkpoints-outcome" />
      {usage?.data ? (
        <p className="field-hint" data-testid="checkpoints-usage" data-bytes={usage.data.bytes}>
          {t('settings.checkpoints.usage', {
            size: formatBytes(usage.data.bytes),
            count: usage.data.tasks,
            dir: usage.data.dir,
          })}
        </p>
      ) : null}
      <ErrorNotice
        error={usage?.error ? t('settings.checkpoints.usageUnknown', { message: usage.error }) : null}
        testId="checkpoints-usage-error"
      />
    </section>
  );
}

/** A size as a person reads one: 512 B, 3.4 KB, 12 MB, 1.2 GB. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 || value >= 10 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

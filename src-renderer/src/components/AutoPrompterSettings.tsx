// Settings: the default workspace's Auto Prompter rules, on/off and the ordered rules as JSON.
import { useEffect, useState } from 'react';
import type { OpInput } from '../api/client';
import { useT } from '../i18n';
import { useAppStore } from '../store/store';
import { ErrorNotice, type Outcome, OutcomeNotice } from './OutcomeNotice';
import { CheckField, SaveActions } from './SettingsFields';

/** The default workspace's Auto Prompter rules: on/off and the ordered rules as JSON (format: tools/README.md). */
export function AutoPrompterSettings() {
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
      <ErrorNotice error={loadError} testId="auto-prompter-load-error" />
      {view && view.workspacePath === null ? (
        <p className="field-hint" data-testid="auto-prompter-no-workspace">
          {t('settings.autoPrompter.noWorkspace')}
        </p>
      ) : null}
      {view?.workspacePath ? (
        <>
          <p className="field-hint">{t('settings.autoPrompter.about', { workspace: view.workspacePath })}</p>
          <ErrorNotice error={view.error} testId="auto-prompter-file-error" />
          <CheckField checked={enabled} onChange={setEnabled} testId="auto-prompter-enabled">
            {t('settings.autoPrompter.enabled')}
          </CheckField>
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
          <SaveActions
            busy={busy}
            onSave={() => void submit()}
            testId="auto-prompter-save"
            label={t('settings.autoPrompter.save')}
          />
        </>
      ) : null}
    </section>
  );
}

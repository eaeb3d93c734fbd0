// Settings: the default workspace's Auto Prompter rules as a form — on/off, and the ordered rules (AutoPrompterRuleForm)
// to add, edit, move and remove. Checked with the file's own schema before saving, and by main again; each error shows
// under the field it concerns. What is saved is the file's shape, as before (format: tools/README.md).
import { useEffect, useState } from 'react';
import { AutoPrompterSettings as RulesSchema } from '../../../src-shared/auto-prompter';
import type { OpInput } from '../api/client';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';
import { AutoPrompterRuleForm } from './AutoPrompterRuleForm';
import { duplicateArgs, emptyRule, type RuleDraft, ruleErrors, toDraft, toRule } from './auto-prompter-drafts';
import type { FieldErrors } from './field-errors';
import { ErrorNotice, type Outcome, OutcomeNotice } from './OutcomeNotice';
import { CheckField, SaveActions } from './SettingsFields';

export function AutoPrompterSettings() {
  const view = useAppStore((s) => s.autoPrompter);
  const loadError = useAppStore((s) => s.autoPrompterError);
  const load = useAppStore((s) => s.loadAutoPrompter);
  const save = useAppStore((s) => s.saveAutoPrompter);
  const [enabled, setEnabled] = useState(false);
  const [rules, setRules] = useState<RuleDraft[]>([]);
  const [errors, setErrors] = useState<FieldErrors>({});
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
    setRules(view.settings.rules.map(toDraft));
  }, [view]);

  const refused = (found: FieldErrors) => {
    setErrors(found);
    setOutcome({ ok: false, text: found.form ?? t('apForm.fix') });
  };

  async function submit() {
    setOutcome(null);
    const input = { enabled, rules: rules.map(toRule) };
    const twice = duplicateArgs(rules);
    const checked = RulesSchema.safeParse(input);
    if (!checked.success || Object.keys(twice).length > 0) {
      return refused({ ...ruleErrors(checked.error?.issues ?? [], rules), ...twice });
    }
    setErrors({});
    setBusy(true);
    const failure = await save(input as OpInput<'saveAutoPrompter'>);
    setBusy(false);
    if (!failure) return setOutcome({ ok: true, text: t('settings.autoPrompter.saved') });
    const found = ruleErrors(failure.issues, rules);
    if (Object.keys(found).length > 0) refused(found);
    else setOutcome({ ok: false, text: failure.message });
  }

  const move = (i: number, by: -1 | 1) => {
    const next = [...rules];
    const [rule] = next.splice(i, 1);
    if (rule) next.splice(i + by, 0, rule);
    setRules(next);
    setErrors({});
  };

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
          <p className="field-hint">{t('apForm.order')}</p>
          {rules.length === 0 ? (
            <p className="field-hint" data-testid="ap-no-rules">
              {t('apForm.none')}
            </p>
          ) : (
            <ol className="ap-rules" data-testid="auto-prompter-rules">
              {rules.map((rule, i) => (
                <AutoPrompterRuleForm
                  key={rule.key}
                  index={i}
                  count={rules.length}
                  rule={rule}
                  errors={errors}
                  onChange={(next) => setRules(rules.map((r) => (r.key === rule.key ? next : r)))}
                  onMove={(by) => move(i, by)}
                  onRemove={() => {
                    setRules(rules.filter((r) => r.key !== rule.key));
                    setErrors({});
                  }}
                />
              ))}
            </ol>
          )}
          <div className="dialog-actions ap-add">
            <button
              type="button"
              className="button"
              onClick={() => setRules([...rules, emptyRule()])}
              data-testid="ap-rule-add"
            >
              {t('apForm.add')}
            </button>
          </div>
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

// One Auto Prompter rule in Settings: its id, the tool it matches, its argument tests (a row each: argument, kind,
// value), its action with the words that go with it, and moving it up or down or removing it. Errors show under the
// field they concern.
import { POLICY_ACTIONS, type PolicyAction } from '../../../src-shared/auto-prompter';
import { useT } from '../hooks/useT';
import { ARG_KINDS, type ArgDraft, type ArgKind, type RuleDraft } from './auto-prompter-drafts';
import { FormField } from './FormField';
import type { FieldErrors } from './field-errors';

interface Props {
  index: number;
  count: number;
  rule: RuleDraft;
  errors: FieldErrors;
  onChange(rule: RuleDraft): void;
  onMove(by: -1 | 1): void;
  onRemove(): void;
}

export function AutoPrompterRuleForm({ index, count, rule, errors, onChange, onMove, onRemove }: Props) {
  const t = useT();
  const at = (field: string) => errors[`rules.${index}.${field}`];
  const setArg = (j: number, arg: Partial<ArgDraft>) =>
    onChange({ ...rule, args: rule.args.map((a, k) => (k === j ? { ...a, ...arg } : a)) });
  const label = rule.id || t('apForm.rule', { n: index + 1 });
  return (
    <li className="ap-rule" data-testid="ap-rule">
      <div className="ap-rule-head">
        <strong>{label}</strong>
        <div className="ap-rule-moves">
          <button
            type="button"
            className="button"
            disabled={index === 0}
            onClick={() => onMove(-1)}
            aria-label={t('apForm.up', { rule: label })}
            data-testid="ap-rule-up"
          >
            ↑
          </button>
          <button
            type="button"
            className="button"
            disabled={index === count - 1}
            onClick={() => onMove(1)}
            aria-label={t('apForm.down', { rule: label })}
            data-testid="ap-rule-down"
          >
            ↓
          </button>
          <button type="button" className="button" onClick={onRemove} data-testid="ap-rule-remove">
            {t('apForm.remove')}
          </button>
        </div>
      </div>
      <div className="ap-rule-grid">
        <FormField label={t('apForm.tool')} error={at('tool')} testId="ap-rule-tool" hint={t('apForm.tool.hint')}>
          {(p) => (
            <input
              {...p}
              value={rule.tool}
              onChange={(e) => onChange({ ...rule, tool: e.target.value })}
              data-testid="ap-rule-tool"
            />
          )}
        </FormField>
        <FormField label={t('apForm.action')} error={at('action')} testId="ap-rule-action">
          {(p) => (
            <select
              {...p}
              value={rule.action}
              onChange={(e) => onChange({ ...rule, action: e.target.value as PolicyAction })}
              data-testid="ap-rule-action"
            >
              {POLICY_ACTIONS.map((a) => (
                <option key={a} value={a}>
                  {t(`apForm.action.${a}`)}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField label={t('apForm.id')} error={at('id')} testId="ap-rule-id" hint={t('apForm.id.hint')}>
          {(p) => (
            <input
              {...p}
              value={rule.id}
              onChange={(e) => onChange({ ...rule, id: e.target.value })}
              data-testid="ap-rule-id"
            />
          )}
        </FormField>
      </div>
      {rule.action === 'approve_once' ? null : (
        <FormField
          label={t(rule.action === 'instruct' ? 'apForm.text' : 'apForm.reason')}
          error={at('words')}
          testId="ap-rule-words"
        >
          {(p) => (
            <textarea
              {...p}
              rows={2}
              value={rule.words}
              onChange={(e) => onChange({ ...rule, words: e.target.value })}
              data-testid="ap-rule-words"
            />
          )}
        </FormField>
      )}
      <fieldset className="ap-rule-args">
        <legend>{t('apForm.args')}</legend>
        {rule.args.map((arg, j) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place while being typed
          <div key={j} className="ap-arg" data-testid="ap-arg">
            <input
              value={arg.name}
              placeholder={t('apForm.arg.name')}
              aria-label={t('apForm.arg.name')}
              aria-invalid={at(`args.${j}`) ? true : undefined}
              onChange={(e) => setArg(j, { name: e.target.value })}
              data-testid="ap-arg-name"
            />
            <select
              value={arg.kind}
              aria-label={t('apForm.arg.kind')}
              onChange={(e) => setArg(j, { kind: e.target.value as ArgKind })}
              data-testid="ap-arg-kind"
            >
              {ARG_KINDS.map((k) => (
                <option key={k} value={k}>
                  {t(`apForm.arg.${k}`)}
                </option>
              ))}
            </select>
            <input
              value={arg.value}
              placeholder={t('apForm.arg.value')}
              aria-label={t('apForm.arg.value')}
              aria-invalid={at(`args.${j}`) ? true : undefined}
              onChange={(e) => setArg(j, { value: e.target.value })}
              data-testid="ap-arg-value"
            />
            <button
              type="button"
              className="button"
              onClick={() => onChange({ ...rule, args: rule.args.filter((_, k) => k !== j) })}
              data-testid="ap-arg-remove"
            >
              {t('apForm.remove')}
            </button>
            {at(`args.${j}`) ? (
              <p className="field-error" data-testid="ap-arg-error">
                {at(`args.${j}`)}
              </p>
            ) : null}
          </div>
        ))}
        {at('args') ? (
          <p className="field-error" data-testid="ap-rule-args-error">
            {at('args')}
          </p>
        ) : null}
        <button
          type="button"
          className="button"
          onClick={() => onChange({ ...rule, args: [...rule.args, { name: '', kind: 'equals', value: '' }] })}
          data-testid="ap-arg-add"
        >
          {t('apForm.arg.add')}
        </button>
      </fieldset>
      {at('form') ? <p className="field-error">{at('form')}</p> : null}
    </li>
  );
}

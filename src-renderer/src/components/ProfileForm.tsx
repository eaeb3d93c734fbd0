// Add or edit one LLM profile (in Settings, and as the first-run setup). The key field starts empty: left empty it
// keeps the stored key, a value replaces it, and "Remove key" clears it. Picking a kind fills its preset base URL
// unless one was typed. "Test connection" asks the server for its models before anything is saved, and they become
// the model picker. A 400 shows under the field it names.
import { type FormEvent, type ReactNode, type RefObject, useEffect, useId, useRef, useState } from 'react';
import type { OpOutput, ProfileView } from '../../../src-shared/contract';
import { effectiveKind, PROVIDER_PRESETS, ProviderKind } from '../../../src-shared/contract/profiles';
import { useT } from '../hooks/useT';
import { english, type Translate } from '../i18n';
import { useAppStore } from '../store/store';
import { errorsOn } from './field-errors';
import { ErrorNotice } from './OutcomeNotice';
import { LIMIT_FIELDS, ProfileLimitsFields, useProfileLimits } from './ProfileLimitsFields';
import { ProfilePriceFields } from './ProfilePriceFields';
import { initialDraft, modelsInput, type ProfileDraft, saveInput, withBaseURL, withKind } from './profile-draft';
import { CheckField } from './SettingsFields';

const FIELDS = ['name', 'kind', 'baseURL', 'model', 'apiKey', 'contextWindow', 'temperature', ...LIMIT_FIELDS] as const;
type Field = (typeof FIELDS)[number];

interface Props {
  /** null: a new profile. */
  profile: ProfileView | null;
  /** Cancelled, or saved (`saved`: the profile as main saved it). */
  onDone(saved?: ProfileView): void;
  /**
   * Opened from a failed model call: the form is scrolled into view and the field that fixes it focused (the first
   * field that can be changed when none is named).
   */
  openedAt?: { field: Field | null };
  /** A new profile of this kind, its name and base URL filled from the preset. */
  preset?: ProviderKind;
  /**
   * The first-run setup: the new profile becomes the default, the optional tuning fields are left out, and the
   * secondary button goes back (to the presets) instead of cancelling.
   */
  firstRun?: { onBack(): void };
}

type DraftTest = { state: 'running' } | ({ state: 'done' } & OpOutput<'listModels'>);
type Errors = Partial<Record<Field, string>>;
type SetDraft = <K extends keyof ProfileDraft>(key: K, value: ProfileDraft[K]) => void;

export function ProfileForm({ profile, onDone, preset, firstRun, openedAt }: Props) {
  const form = useRef<HTMLFormElement>(null);
  const saveProfile = useAppStore((s) => s.saveProfile);
  const listModels = useAppStore((s) => s.listModels);
  const [draft, setDraft] = useState(() => initialDraft(profile, preset, firstRun !== undefined));
  const set: SetDraft = (key, value) => setDraft((d) => ({ ...d, [key]: value }));
  const limits = useProfileLimits(profile);
  const [test, setTest] = useState<DraftTest | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const id = useId();
  const t = useT();
  useFocusOpenedField(form, openedAt === undefined ? undefined : openedAt.field);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setSaving(true);
    setErrors({});
    setFormError(null);
    const input = saveInput(draft, profile);
    limits.apply(input);
    const outcome = await saveProfile(input);
    setSaving(false);
    if (outcome.ok) {
      set('apiKey', '');
      return onDone(outcome.profile);
    }
    const byField = errorsOn(outcome.error, FIELDS);
    setErrors(byField);
    if (Object.keys(byField).length === 0) setFormError(outcome.error.message);
  }

  async function testConnection() {
    setTest({ state: 'running' });
    const answer = await listModels(modelsInput(draft, profile));
    setTest({ state: 'done', ...answer });
    // Nothing chosen yet: the server's first model is the likeliest choice, and the picker shows the others.
    if (answer.ok && draft.model.trim() === '' && answer.models[0]) set('model', answer.models[0]);
  }

  const fieldError = (field: Field) =>
    errors[field] ? (
      <p className="field-error" id={`${id}-${field}-error`} data-testid={`profile-error-${field}`}>
        {errors[field]}
      </p>
    ) : null;
  const invalid = (field: Field) => ({
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `${id}-${field}-error` : undefined,
  });
  const fields = { draft, set, put: setDraft, fieldError, invalid };

  return (
    <form ref={form} className="profile-form" onSubmit={submit} data-testid="profile-form" noValidate>
      <h3 className="settings-section">{profile ? t('profile.edit', { name: profile.name }) : t('profile.new')}</h3>
      <ConnectionFields {...fields} profile={profile} />
      <ModelFields {...fields} test={test} />
      {firstRun ? null : <TuningFields {...fields} limits={limits} />}
      {profile?.isDefault || firstRun ? null : (
        <CheckField
          checked={draft.makeDefault}
          onChange={(v) => set('makeDefault', v)}
          testId="profile-field-makeDefault"
        >
          {t('profile.makeDefault')}
        </CheckField>
      )}
      <TestOutcome test={test} model={draft.model} />
      <ErrorNotice error={formError} testId="profile-form-error" />
      <div className="dialog-actions">
        <button
          type="button"
          className="button"
          onClick={() => void testConnection()}
          disabled={test?.state === 'running' || draft.baseURL.trim() === ''}
          data-testid="profile-form-test"
        >
          {test?.state === 'running' ? t('profile.testing') : t('profile.test')}
        </button>
        <button
          type="button"
          className="button"
          onClick={firstRun ? firstRun.onBack : () => onDone()}
          data-testid="profile-cancel"
        >
          {firstRun ? t('setup.back') : t('profile.cancel')}
        </button>
        <button type="submit" className="button button-primary" disabled={saving} data-testid="profile-save">
          {saving ? t('profile.saving') : t('profile.save')}
        </button>
      </div>
    </form>
  );
}

/**
 * Opened from a failed model call: the form scrolled into view and the field that fixes it focused (the first field
 * that can be changed when none is named). `field` undefined: opened as usual.
 */
function useFocusOpenedField(form: RefObject<HTMLFormElement | null>, field: Field | null | undefined) {
  useEffect(() => {
    if (field === undefined || !form.current) return;
    const named = field ? `[data-testid="profile-field-${field}"]` : null;
    const target =
      (named && form.current.querySelector<HTMLElement>(named)) ||
      form.current.querySelector<HTMLElement>('input:not([readonly]):not([disabled]), select');
    form.current.scrollIntoView({ block: 'start' });
    target?.focus({ preventScroll: true });
  }, [form, field]);
}

/** What each group of fields is given: the draft, its setter, and a field's error and aria attributes. */
interface FieldsProps {
  draft: ProfileDraft;
  set: SetDraft;
  /** The whole draft at once, for a change that moves several fields (a kind's preset URL). */
  put(next: ProfileDraft): void;
  fieldError(field: Field): ReactNode;
  invalid(field: Field): { 'aria-invalid'?: boolean; 'aria-describedby'?: string };
}

/** Where the server is and how to reach it: name, kind, base URL, key. */
function ConnectionFields({
  draft,
  set,
  put,
  fieldError,
  invalid,
  profile,
}: FieldsProps & { profile: ProfileView | null }) {
  const t = useT();
  return (
    <>
      <label className="field">
        <span>{t('profile.name')}</span>
        <input
          value={draft.name}
          onChange={(e) => set('name', e.target.value)}
          readOnly={profile !== null}
          placeholder={t('profile.namePlaceholder')}
          data-testid="profile-field-name"
          {...invalid('name')}
        />
        {fieldError('name')}
      </label>
      <label className="field">
        <span>
          {t('profile.kind')}
          <ActsAs kind={draft.kind} baseURL={draft.baseURL} t={t} />
        </span>
        <select
          value={draft.kind}
          onChange={(e) => put(withKind(draft, e.target.value as ProviderKind))}
          data-testid="profile-field-kind"
          {...invalid('kind')}
        >
          {ProviderKind.options.map((k) => (
            <option key={k} value={k}>
              {kindLabel(k, t)}
            </option>
          ))}
        </select>
        {fieldError('kind')}
      </label>
      <label className="field">
        <span>{t('profile.baseURL')}</span>
        <input
          value={draft.baseURL}
          onChange={(e) => put(withBaseURL(draft, e.target.value))}
          placeholder="http://127.0.0.1:8080/v1"
          data-testid="profile-field-baseURL"
          {...invalid('baseURL')}
        />
        {fieldError('baseURL')}
      </label>
      <label className="field">
        <span>
          {t('profile.apiKey')}{' '}
          <em>{profile?.hasKey ? t('profile.stored', { key: keyLabel(profile, t) }) : t('profile.optional')}</em>
        </span>
        <input
          type="password"
          value={draft.apiKey}
          onChange={(e) => set('apiKey', e.target.value)}
          disabled={draft.removeKey}
          autoComplete="off"
          placeholder={
            profile?.hasKey
              ? t('profile.replacePlaceholder', { key: keyLabel(profile, t) })
              : t('profile.keyPlaceholder')
          }
          data-testid="profile-field-apiKey"
          {...invalid('apiKey')}
        />
        {fieldError('apiKey')}
      </label>
      {profile?.hasKey ? (
        <CheckField checked={draft.removeKey} onChange={(v) => set('removeKey', v)} testId="profile-field-removeKey">
          {t('profile.removeKey')}
        </CheckField>
      ) : null}
    </>
  );
}

/** The model, typed or picked from what "Test connection" listed. */
function ModelFields({ draft, set, fieldError, invalid, test }: FieldsProps & { test: DraftTest | null }) {
  const t = useT();
  return (
    <>
      <label className="field">
        <span>{t('profile.model')}</span>
        <input
          value={draft.model}
          onChange={(e) => set('model', e.target.value)}
          data-testid="profile-field-model"
          {...invalid('model')}
        />
        {fieldError('model')}
      </label>
      {test?.state === 'done' && test.models.length > 0 ? (
        <label className="field">
          <span>{t('profile.modelPick')}</span>
          <select
            value={test.models.includes(draft.model) ? draft.model : ''}
            onChange={(e) => set('model', e.target.value)}
            data-testid="profile-field-modelPick"
          >
            <option value="" disabled>
              {t('profile.modelPickNone')}
            </option>
            {test.models.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </label>
      ) : null}
    </>
  );
}

/** The optional tuning the first run leaves out: context window, temperature, limits, prices, images. */
function TuningFields({
  draft,
  set,
  fieldError,
  invalid,
  limits,
}: FieldsProps & { limits: ReturnType<typeof useProfileLimits> }) {
  const t = useT();
  return (
    <>
      <div className="field-row">
        <label className="field">
          <span>
            {t('profile.contextWindow')} <em>{t('profile.optional')}</em>
          </span>
          <input
            inputMode="numeric"
            value={draft.contextWindow}
            onChange={(e) => set('contextWindow', e.target.value)}
            placeholder={t('profile.tokens')}
            data-testid="profile-field-contextWindow"
            {...invalid('contextWindow')}
          />
          {fieldError('contextWindow')}
        </label>
        <label className="field">
          <span>
            {t('profile.temperature')} <em>{t('profile.optional')}</em>
          </span>
          <input
            inputMode="decimal"
            value={draft.temperature}
            onChange={(e) => set('temperature', e.target.value)}
            placeholder="0–2"
            data-testid="profile-field-temperature"
            {...invalid('temperature')}
          />
          {fieldError('temperature')}
        </label>
      </div>
      <ProfileLimitsFields limits={limits} fieldError={fieldError} />
      <ProfilePriceFields prices={limits.prices} model={draft.model} kind={draft.kind} baseURL={draft.baseURL} />
      <CheckField checked={draft.images} onChange={(v) => set('images', v)} testId="profile-field-images">
        {t('profile.images')}
      </CheckField>
    </>
  );
}

/** What "Test connection" came to: the model count (and whether the chosen model is listed), or why it failed. */
function TestOutcome({ test, model }: { test: DraftTest | null; model: string }) {
  const t = useT();
  if (test?.state !== 'done') return null;
  const lines: string[] = [];
  if (test.ok) {
    lines.push(test.models.length > 0 ? t('profile.testOk', { count: test.models.length }) : t('profile.testOkNone'));
    if (test.models.length > 0 && model.trim() !== '' && !test.models.includes(model.trim())) {
      lines.push(t('profile.testModelMissing', { model: model.trim() }));
    }
  } else if (test.code === 'profile_key_refused') lines.push(t('profile.refused'));
  else if (test.code === 'profile_unreachable') lines.push(t('profile.unreachable'));
  else lines.push(t('profile.testFailed', { error: test.error ?? '' }));
  return (
    <p
      className={`notice ${test.ok ? 'notice-ok' : 'notice-error'}`}
      data-testid="profile-form-test-result"
      data-ok={test.ok}
      data-code={test.code}
      title={test.ok ? undefined : test.error}
    >
      {lines.join(' ')}
    </p>
  );
}

/** A stored key as the UI shows it: never the key, at most its last 4 characters. */
export function keyLabel(profile: Pick<ProfileView, 'hasKey' | 'keyHint'>, t: Translate = english): string {
  if (!profile.hasKey) return t('profile.noKey');
  return profile.keyHint ? `•••• ${profile.keyHint}` : '•••• (set)';
}

/** A generic profile whose base URL names a known server is sent what that kind is sent: the form says so. */
export function ActsAs({ kind, baseURL, t }: { kind: ProviderKind; baseURL: string; t: Translate }) {
  const acts = effectiveKind({ kind, baseURL: baseURL.trim() });
  if (acts === kind) return null;
  return (
    <>
      {' '}
      <em data-testid="profile-acts-as">{t('profile.actsAs', { kind: kindLabel(acts, t) })}</em>
    </>
  );
}

/** A kind as the UI names it: the provider's own name, or "Generic" in the UI's language. */
export function kindLabel(kind: ProviderKind, t: Translate = english): string {
  return kind === 'generic' ? t('profile.kindGeneric') : PROVIDER_PRESETS[kind].label;
}

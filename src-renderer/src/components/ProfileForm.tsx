// Add or edit one LLM profile (in Settings, and as the first-run setup). The key field starts empty: left empty it
// keeps the stored key, a value replaces it, and "Remove key" clears it. Picking a kind fills its preset base URL
// unless one was typed. "Test connection" asks the server for its models before anything is saved, and they become
// the model picker. A 400 shows under the field it names.
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import type { OpOutput, ProfileView } from '../../../src-shared/contract';
import { effectiveKind, PROVIDER_PRESETS, ProviderKind } from '../../../src-shared/contract/profiles';
import type { OpInput } from '../api/client';
import { useT } from '../hooks/useT';
import { english, type Translate } from '../i18n';
import { useAppStore } from '../store/store';
import { ErrorNotice } from './OutcomeNotice';
import { LIMIT_FIELDS, ProfileLimitsFields, useProfileLimits } from './ProfileLimitsFields';
import { ProfilePriceFields } from './ProfilePriceFields';
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

export function ProfileForm({ profile, onDone, preset, firstRun, openedAt }: Props) {
  const form = useRef<HTMLFormElement>(null);
  const openedField = openedAt === undefined ? undefined : openedAt.field;
  const saveProfile = useAppStore((s) => s.saveProfile);
  const listModels = useAppStore((s) => s.listModels);
  const [name, setName] = useState(profile?.name ?? (preset ? presetName(preset) : ''));
  const [kind, setKind] = useState<ProviderKind>(profile?.kind ?? preset ?? 'generic');
  const [baseURL, setBaseURL] = useState(profile?.baseURL ?? (preset ? PROVIDER_PRESETS[preset].baseURL : ''));
  // A URL the user typed (or the profile's own) is never replaced by a preset.
  const [urlTyped, setUrlTyped] = useState(profile !== null);
  const [model, setModel] = useState(profile?.model ?? '');
  const [apiKey, setApiKey] = useState('');
  const [removeKey, setRemoveKey] = useState(false);
  const [contextWindow, setContextWindow] = useState(profile?.contextWindow?.toString() ?? '');
  const [temperature, setTemperature] = useState(profile?.temperature?.toString() ?? '');
  const [makeDefault, setMakeDefault] = useState(firstRun !== undefined);
  const [images, setImages] = useState(profile?.media?.includes('image') ?? false);
  const limits = useProfileLimits(profile);
  const [test, setTest] = useState<DraftTest | null>(null);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const id = useId();
  const t = useT();

  useEffect(() => {
    if (openedField === undefined || !form.current) return;
    const named = openedField ? `[data-testid="profile-field-${openedField}"]` : null;
    const target =
      (named && form.current.querySelector<HTMLElement>(named)) ||
      form.current.querySelector<HTMLElement>('input:not([readonly]):not([disabled]), select');
    form.current.scrollIntoView({ block: 'start' });
    target?.focus({ preventScroll: true });
  }, [openedField]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setSaving(true);
    setErrors({});
    setFormError(null);
    const input: OpInput<'saveProfile'> = { name: name.trim(), kind, baseURL: baseURL.trim(), model };
    if (removeKey) input.apiKey = '';
    else if (apiKey !== '') input.apiKey = apiKey;
    if (contextWindow.trim() !== '') input.contextWindow = Number(contextWindow);
    if (temperature.trim() !== '') input.temperature = Number(temperature);
    limits.apply(input);
    if (profile?.parallelToolCalls !== undefined) input.parallelToolCalls = profile.parallelToolCalls;
    // Images from the form; audio as it was saved (the bridge can set it).
    const media = [...(images ? (['image'] as const) : []), ...(profile?.media ?? []).filter((m) => m !== 'image')];
    if (media.length > 0 || profile?.media) input.media = media;
    if (makeDefault) input.makeDefault = true;
    const outcome = await saveProfile(input);
    setSaving(false);
    if (outcome.ok) {
      setApiKey('');
      return onDone(outcome.profile);
    }
    const byField: Partial<Record<Field, string>> = {};
    for (const field of FIELDS) {
      const message = outcome.error.issueFor(field);
      if (message) byField[field] = message;
    }
    setErrors(byField);
    if (Object.keys(byField).length === 0) setFormError(outcome.error.message);
  }

  function pickKind(next: ProviderKind) {
    setKind(next);
    if (!urlTyped) setBaseURL(PROVIDER_PRESETS[next].baseURL);
  }

  async function testConnection() {
    setTest({ state: 'running' });
    const draft: OpInput<'listModels'> = { baseURL: baseURL.trim(), kind };
    if (apiKey !== '' && !removeKey) draft.apiKey = apiKey;
    else if (removeKey) draft.apiKey = '';
    // An edited profile's stored key is used by main only for the URL it was saved with.
    else if (profile) draft.name = profile.name;
    const answer = await listModels(draft);
    setTest({ state: 'done', ...answer });
    // Nothing chosen yet: the server's first model is the likeliest choice, and the picker shows the others.
    if (answer.ok && model.trim() === '' && answer.models[0]) setModel(answer.models[0]);
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

  return (
    <form ref={form} className="profile-form" onSubmit={submit} data-testid="profile-form" noValidate>
      <h3 className="settings-section">{profile ? t('profile.edit', { name: profile.name }) : t('profile.new')}</h3>
      <label className="field">
        <span>{t('profile.name')}</span>
        <input
          value={name}
          onChange={(e) => setName(e.target.value)}
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
          <ActsAs kind={kind} baseURL={baseURL} t={t} />
        </span>
        <select
          value={kind}
          onChange={(e) => pickKind(e.target.value as ProviderKind)}
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
          value={baseURL}
          onChange={(e) => {
            setBaseURL(e.target.value);
            setUrlTyped(e.target.value.trim() !== '');
          }}
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
          value={apiKey}
          onChange={(e) => setApiKey(e.target.value)}
          disabled={removeKey}
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
        <CheckField checked={removeKey} onChange={setRemoveKey} testId="profile-field-removeKey">
          {t('profile.removeKey')}
        </CheckField>
      ) : null}
      <label className="field">
        <span>{t('profile.model')}</span>
        <input
          value={model}
          onChange={(e) => setModel(e.target.value)}
          data-testid="profile-field-model"
          {...invalid('model')}
        />
        {fieldError('model')}
      </label>
      {test?.state === 'done' && test.models.length > 0 ? (
        <label className="field">
          <span>{t('profile.modelPick')}</span>
          <select
            value={test.models.includes(model) ? model : ''}
            onChange={(e) => setModel(e.target.value)}
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
      {firstRun ? null : (
        <div className="field-row">
          <label className="field">
            <span>
              {t('profile.contextWindow')} <em>{t('profile.optional')}</em>
            </span>
            <input
              inputMode="numeric"
              value={contextWindow}
              onChange={(e) => setContextWindow(e.target.value)}
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
              value={temperature}
              onChange={(e) => setTemperature(e.target.value)}
              placeholder="0–2"
              data-testid="profile-field-temperature"
              {...invalid('temperature')}
            />
            {fieldError('temperature')}
          </label>
        </div>
      )}
      {firstRun ? null : <ProfileLimitsFields limits={limits} fieldError={fieldError} />}
      {firstRun ? null : <ProfilePriceFields prices={limits.prices} model={model} kind={kind} baseURL={baseURL} />}
      {firstRun ? null : (
        <CheckField checked={images} onChange={setImages} testId="profile-field-images">
          {t('profile.images')}
        </CheckField>
      )}
      {profile?.isDefault || firstRun ? null : (
        <CheckField checked={makeDefault} onChange={setMakeDefault} testId="profile-field-makeDefault">
          {t('profile.makeDefault')}
        </CheckField>
      )}
      <TestOutcome test={test} model={model} />
      <ErrorNotice error={formError} testId="profile-form-error" />
      <div className="dialog-actions">
        <button
          type="button"
          className="button"
          onClick={() => void testConnection()}
          disabled={test?.state === 'running' || baseURL.trim() === ''}
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

/** The name a new profile of a preset starts with: the kind itself, or "default" for a generic server. */
function presetName(kind: ProviderKind): string {
  return kind === 'generic' ? 'default' : kind;
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

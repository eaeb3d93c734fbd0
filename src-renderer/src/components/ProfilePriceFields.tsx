// A profile's prices in its form: input, cached input and output in USD per million tokens. All empty: the preset's
// list price of the model, named with its source and date, or none (usage then shows tokens only). A number that is
// not one is said under its field as it is typed; main's schema refuses it again, naming the field, and saves nothing.
import { useState } from 'react';
import type { ProfileView } from '../../../src-shared/contract';
import type { ProviderKind } from '../../../src-shared/contract/profiles';
import { effectiveKind } from '../../../src-shared/contract/profiles';
import { ModelPrices } from '../../../src-shared/model-prices';
import { formatUsd, presetPrices } from '../../../src-shared/pricing';
import type { OpInput } from '../api/client';
import { useLocale, useT } from '../hooks/useT';

const PRICE_FIELDS = ['input', 'cachedInput', 'output'] as const;
type PriceField = (typeof PRICE_FIELDS)[number];
type PriceText = Record<PriceField, string>;

const shown = (value: number | undefined) => (value === undefined ? '' : String(value));

/** The number typed, or NaN for anything that is not a plain decimal (main refuses NaN by name too). */
const parsed = (text: string) => (/^\s*\d+(\.\d+)?\s*$/.test(text) ? Number(text) : Number.NaN);

export function useProfilePrices(profile: ProfileView | null) {
  const [text, setText] = useState<PriceText>({
    input: shown(profile?.prices?.input),
    cachedInput: shown(profile?.prices?.cachedInput),
    output: shown(profile?.prices?.output),
  });
  /** Puts the typed prices into a save: all empty leaves them out (the preset's, if any); a bad one is sent as such. */
  const apply = (input: OpInput<'saveProfile'>) => {
    if (PRICE_FIELDS.every((f) => text[f].trim() === '')) return;
    input.prices = {
      input: parsed(text.input),
      output: parsed(text.output),
      ...(text.cachedInput.trim() === '' ? {} : { cachedInput: parsed(text.cachedInput) }),
    };
  };
  return { text, setText, apply };
}

/** What is wrong with a field as typed, if anything. */
function problem(text: PriceText, field: PriceField): 'price.invalid' | 'price.needBoth' | null {
  const value = text[field].trim();
  if (value !== '') return ModelPrices.shape.input.safeParse(parsed(value)).success ? null : 'price.invalid';
  const anyTyped = PRICE_FIELDS.some((f) => text[f].trim() !== '');
  return anyTyped && field !== 'cachedInput' ? 'price.needBoth' : null;
}

interface Props {
  prices: ReturnType<typeof useProfilePrices>;
  model: string;
  kind: ProviderKind;
  baseURL: string;
}

export function ProfilePriceFields({ prices, model, kind, baseURL }: Props) {
  const t = useT();
  const locale = useLocale();
  const preset =
    model.trim() === '' ? null : presetPrices(effectiveKind({ kind, baseURL: baseURL.trim() }), model.trim());
  const perMillion = (usd: number | undefined) => (usd === undefined ? '—' : formatUsd(usd, locale));
  return (
    <fieldset className="price-fields" data-testid="profile-prices">
      <legend>{t('price.legend')}</legend>
      <div className="field-row">
        {PRICE_FIELDS.map((field) => {
          const error = problem(prices.text, field);
          const errorId = `profile-price-${field}-error`;
          return (
            <label className="field" key={field}>
              <span>
                {t(`price.${field}`)} <em>{t('profile.optional')}</em>
              </span>
              <input
                inputMode="decimal"
                value={prices.text[field]}
                onChange={(e) => prices.setText({ ...prices.text, [field]: e.target.value })}
                placeholder={preset ? String(preset.prices[field] ?? preset.prices.input) : ''}
                data-testid={`profile-field-price-${field}`}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? errorId : undefined}
              />
              {error ? (
                <p className="field-error" id={errorId} data-testid={`profile-error-price-${field}`}>
                  {t(error)}
                </p>
              ) : null}
            </label>
          );
        })}
      </div>
      {model.trim() === '' ? null : (
        <p className="field-hint" data-testid="profile-price-hint">
          {preset
            ? t('price.preset', {
                model: model.trim(),
                input: perMillion(preset.prices.input),
                cached: perMillion(preset.prices.cachedInput ?? preset.prices.input),
                output: perMillion(preset.prices.output),
                checked: preset.checked,
                source: preset.source,
              })
            : t('price.none', { model: model.trim() })}
        </p>
      )}
    </fieldset>
  );
}

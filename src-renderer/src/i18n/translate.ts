// Looking a message up: the locale's text for a key, {name} placeholders filled, and "one|other" forms chosen by
// {count} with the locale's plural rules.
import { en, type MessageKey, type Messages } from './en';
import { ja } from './ja';

export const LOCALES = ['en', 'ja'] as const;
export type Locale = (typeof LOCALES)[number];
export type Params = Readonly<Record<string, string | number>>;
export type Translate = (key: MessageKey, params?: Params) => string;

export const MESSAGES: Record<Locale, Messages> = { en, ja };

/** The native name of each locale, for the language picker. */
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', ja: '日本語' };

/** The UI locale for a BCP 47 tag such as `navigator.language`: Japanese for ja*, else English. */
export function localeFor(language: string | null | undefined): Locale {
  return /^ja(?:[-_]|$)/i.test(language ?? '') ? 'ja' : 'en';
}

export function isLocale(value: unknown): value is Locale {
  return (LOCALES as readonly unknown[]).includes(value);
}

const pluralRules = new Map<Locale, Intl.PluralRules>();

function pluralForm(locale: Locale, text: string, count: number): string {
  const forms = text.split('|');
  if (forms.length < 2) return text;
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRules.set(locale, rules);
  }
  return (rules.select(count) === 'one' ? forms[0] : forms[forms.length - 1]) ?? text;
}

export function translate(locale: Locale, key: MessageKey, params?: Params): string {
  const raw = MESSAGES[locale][key] || en[key];
  const count = params?.count;
  const text = typeof count === 'number' ? pluralForm(locale, raw, count) : raw;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    return value === undefined ? whole : String(value);
  });
}

/** A translator bound to one locale. */
export function translator(locale: Locale): Translate {
  return (key, params) => translate(locale, key, params);
}

/** English, for pure functions called without a locale (and their tests). */
export const english: Translate = translator('en');

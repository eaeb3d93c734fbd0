// The renderer's UI text: messages per locale and the translator (the hook that reads the locale from the store is
// hooks/useT.ts: the store translates its toasts, so i18n imports nothing of it).
export type { MessageKey, Messages } from './en';
export {
  english,
  isLocale,
  LOCALE_NAMES,
  LOCALES,
  type Locale,
  localeFor,
  type Params,
  type Translate,
  translate,
  translator,
} from './translate';

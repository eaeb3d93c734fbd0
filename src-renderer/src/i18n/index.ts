// The renderer's UI text: messages per locale, the translator, and the hook that reads the locale from the store.
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
export { useLocale, useT } from './useT';

// useT: the translator for the locale chosen in the store (English outside a store, as in render tests); a new
// function only when the locale changes.
import { useContext, useMemo } from 'react';
import { createStore, type StoreApi, useStore } from 'zustand';
import { type Locale, type Translate, translator } from '../i18n/translate';
import { StoreContext } from '../store/store';

type LocaleState = { locale: Locale };
const NO_STORE: StoreApi<LocaleState> = createStore<LocaleState>(() => ({ locale: 'en' }));

export function useT(): Translate {
  const locale = useLocale();
  return useMemo(() => translator(locale), [locale]);
}

/** The UI's language, for what is formatted outside the messages (times, numbers). */
export function useLocale(): Locale {
  const store: StoreApi<LocaleState> = useContext(StoreContext) ?? NO_STORE;
  return useStore(store, (s) => s.locale);
}

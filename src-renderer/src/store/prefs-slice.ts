// The user's display preferences: the UI language (from the OS locale until chosen) and the theme (following the OS
// until chosen), both kept in localStorage across reloads.
import type { StateCreator } from 'zustand';
import { isLocale, type Locale, localeFor } from '../i18n/translate';
import { isThemeChoice, type ThemeChoice } from '../theme';
import type { AppState } from './types';

export interface PrefsSlice {
  locale: Locale;
  theme: ThemeChoice;
  setLocale(locale: Locale): void;
  setTheme(theme: ThemeChoice): void;
}

export const LOCALE_KEY = 'maestro.locale';
export const THEME_KEY = 'maestro.theme';

function read(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    globalThis.localStorage?.setItem(key, value);
  } catch {
    // Storage unavailable: the choice lasts until the next reload.
  }
}

/** The stored locale, else the OS one. */
export function initialLocale(): Locale {
  const stored = read(LOCALE_KEY);
  return isLocale(stored) ? stored : localeFor(globalThis.navigator?.language);
}

export function initialTheme(): ThemeChoice {
  const stored = read(THEME_KEY);
  return isThemeChoice(stored) ? stored : 'system';
}

export const createPrefsSlice: StateCreator<AppState, [], [], PrefsSlice> = (set) => ({
  locale: initialLocale(),
  theme: initialTheme(),

  setLocale(locale) {
    set({ locale });
    write(LOCALE_KEY, locale);
  },

  setTheme(theme) {
    set({ theme });
    write(THEME_KEY, theme);
  },
});

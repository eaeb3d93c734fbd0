// The theme: the user's choice (system, light, dark) resolved against prefers-color-scheme and set as
// <html data-theme="light|dark">, which styles/base.css keys its palette on.
export const THEME_CHOICES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];
export type Theme = 'light' | 'dark';

const DARK_QUERY = '(prefers-color-scheme: dark)';

export function isThemeChoice(value: unknown): value is ThemeChoice {
  return (THEME_CHOICES as readonly unknown[]).includes(value);
}

export function resolveTheme(choice: ThemeChoice, osDark: boolean): Theme {
  if (choice === 'system') return osDark ? 'dark' : 'light';
  return choice;
}

/** Sets data-theme now and, for "system", again whenever the OS scheme changes; returns the disposer. */
export function applyTheme(choice: ThemeChoice, root: HTMLElement = document.documentElement): () => void {
  const query = globalThis.matchMedia?.(DARK_QUERY);
  const apply = () => {
    root.dataset.theme = resolveTheme(choice, query?.matches ?? false);
  };
  apply();
  if (choice !== 'system' || !query) return () => {};
  query.addEventListener('change', apply);
  return () => query.removeEventListener('change', apply);
}

// Settings: the language and the theme (light, dark, or as the system says).

import { useT } from '../hooks/useT';
import { LOCALE_NAMES, LOCALES, type Locale } from '../i18n';
import { useAppStore } from '../store/store';
import { THEME_CHOICES, type ThemeChoice } from '../theme';

export function AppearanceSettings() {
  const locale = useAppStore((s) => s.locale);
  const theme = useAppStore((s) => s.theme);
  const setLocale = useAppStore((s) => s.setLocale);
  const setTheme = useAppStore((s) => s.setTheme);
  const t = useT();
  return (
    <>
      <h3 className="settings-section">{t('settings.appearance')}</h3>
      <div className="field-row">
        <label className="field">
          <span>{t('settings.language')}</span>
          <select value={locale} onChange={(e) => setLocale(e.target.value as Locale)} data-testid="settings-locale">
            {LOCALES.map((l) => (
              <option key={l} value={l} lang={l}>
                {LOCALE_NAMES[l]}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('settings.theme')}</span>
          <select value={theme} onChange={(e) => setTheme(e.target.value as ThemeChoice)} data-testid="settings-theme">
            {THEME_CHOICES.map((choice) => (
              <option key={choice} value={choice}>
                {t(`settings.theme.${choice}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
    </>
  );
}

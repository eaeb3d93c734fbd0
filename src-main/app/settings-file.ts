// `<dataDir>/settings.json`: the app's own settings (OS notifications). A missing file means the defaults; a broken
// one is reported (naming the file and the field) and the defaults apply, so a bad edit never silences the app.
import fs from 'node:fs';
import path from 'node:path';
import { type AppSettings, AppSettings as AppSettingsSchema, DEFAULT_SETTINGS } from '../../src-shared/settings';
import { writeFileAtomic } from '../workspace/atomic-write';

export const SETTINGS_FILE = 'settings.json';

export const settingsFile = (dataDir: string) => path.join(dataDir, SETTINGS_FILE);

export interface LoadedSettings {
  settings: AppSettings;
  /** Why the file cannot be used, or null. */
  error: string | null;
}

export function loadSettings(dataDir: string): LoadedSettings {
  const file = settingsFile(dataDir);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { settings: DEFAULT_SETTINGS, error: null };
    return { settings: DEFAULT_SETTINGS, error: `${file}: cannot be read (${(e as Error).message})` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { settings: DEFAULT_SETTINGS, error: `${file}: not valid JSON (${(e as Error).message})` };
  }
  const parsed = AppSettingsSchema.safeParse(json);
  if (parsed.success) return { settings: parsed.data, error: null };
  const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`);
  return { settings: DEFAULT_SETTINGS, error: `${file}: ${issues.join('; ')}` };
}

/** Writes settings already checked by the contract's schema; atomic, so a crash leaves the old file or the new. */
export function writeSettings(dataDir: string, settings: AppSettings): void {
  writeFileAtomic(settingsFile(dataDir), `${JSON.stringify(settings, null, 2)}\n`, 0o600);
}

// `<dataDir>/settings.json`: the app's own settings (OS notifications). A missing file means the defaults; a broken
// one is reported (naming the file and the field) and the defaults apply, so a bad edit never silences the app.
import path from 'node:path';
import { type AppSettings, AppSettings as AppSettingsSchema, DEFAULT_SETTINGS } from '../../src-shared/settings';
import { byVersion, readJsonFile, type Versioned, writeJsonFile } from '../workspace/json-file';

export const SETTINGS_FILE = 'settings.json';

export const settingsFile = (dataDir: string) => path.join(dataDir, SETTINGS_FILE);

export interface LoadedSettings {
  settings: AppSettings;
  /** Why the file cannot be used, or null. */
  error: string | null;
}

/** By file: settings.json is asked at every job start and changes only when a person saves. */
const loaded = new Map<string, Versioned<LoadedSettings>>();

export function loadSettings(dataDir: string): LoadedSettings {
  const file = settingsFile(dataDir);
  let versioned = loaded.get(file);
  if (!versioned) {
    versioned = byVersion(file, () => readSettings(file));
    loaded.set(file, versioned);
  }
  return versioned.get();
}

function readSettings(file: string): LoadedSettings {
  const read = readJsonFile(file, AppSettingsSchema);
  if (read.kind === 'ok') return { settings: read.value, error: null };
  return {
    settings: DEFAULT_SETTINGS,
    error: read.kind === 'broken' ? `${file}: ${read.invalid ?? read.problem}` : null,
  };
}

/** Writes settings already checked by the contract's schema; atomic, so a crash leaves the old file or the new. */
export function writeSettings(dataDir: string, settings: AppSettings): void {
  loaded.get(settingsFile(dataDir))?.forget();
  writeJsonFile(settingsFile(dataDir), settings);
}

// GET /settings and POST /settings: the app's settings for the Settings dialog, with where its data lives.
import type { OpOutput, OpParsedInput } from '../../src-shared/contract';
import type { AppContext } from './context';
import { loadSettings, settingsFile, writeSettings } from './settings-file';

function view(ctx: AppContext): OpOutput<'getSettings'> {
  const { settings, error } = loadSettings(ctx.dataDir);
  return {
    settings,
    file: settingsFile(ctx.dataDir),
    error,
    dataDir: ctx.dataDir,
    defaultWorkspace: ctx.defaultWorkspace,
  };
}

export function getSettings(ctx: AppContext): OpOutput<'getSettings'> {
  return view(ctx);
}

/** Replaces the whole file (a broken one included): the input was checked by the same schema the file is read with. */
export function saveSettings(ctx: AppContext, settings: OpParsedInput<'saveSettings'>): OpOutput<'saveSettings'> {
  writeSettings(ctx.dataDir, settings);
  return view(ctx);
}

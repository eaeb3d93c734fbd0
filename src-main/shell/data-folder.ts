// "Open data folder" behind `window.maestro.openDataFolder`: shows MAESTRO's own data dir in the OS file manager. It
// takes no input — the folder is main's, never one the renderer names. Electron-free (ipc.ts passes shell.openPath in),
// so it runs in tests.
import type { Result } from '../../src-shared/errors';

/** Electron's `shell.openPath`: resolves to an error message, or '' when the folder was opened. */
export type OpenPath = (folder: string) => Promise<string>;

export async function openDataFolder(dataDir: string, openPath: OpenPath): Promise<Result<{ opened: true }>> {
  const problem = await openPath(dataDir);
  if (problem === '') return { ok: true, value: { opened: true } };
  return { ok: false, error: { code: 'internal', message: `cannot open ${dataDir}: ${problem}` } };
}

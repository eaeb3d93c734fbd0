// The OS folder picker behind `window.maestro.pickFolder`: the input is validated here in main, the dialog opens on
// the calling window (ipc.ts passes it in), and only an existing folder goes back. Electron-free, so it runs in tests.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Result } from '../../src-shared/errors';
import { describeIssues, errorIssues } from '../../src-shared/issues';
import type { PickFolderInput, PickFolderOutput } from '../../src-shared/preload-api';

const PickFolderInputSchema = z
  .object({ defaultPath: z.string().min(1).max(4096).optional() })
  .strict() satisfies z.ZodType<PickFolderInput>;

/** What Electron's `dialog.showOpenDialog` answers, and the options this picker asks it for. */
export interface OpenDialogAnswer {
  canceled: boolean;
  filePaths: string[];
}
export interface OpenDialogOptions {
  properties: ('openDirectory' | 'createDirectory')[];
  defaultPath?: string;
}
export type ShowOpenDialog = (options: OpenDialogOptions) => Promise<OpenDialogAnswer>;

export async function pickFolder(raw: unknown, show: ShowOpenDialog): Promise<Result<PickFolderOutput>> {
  const parsed = PickFolderInputSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    const message = `invalid input for pickFolder: ${describeIssues(parsed.error.issues, { whole: 'input' })}`;
    return { ok: false, error: { code: 'invalid_input', message, issues: errorIssues(parsed.error.issues) } };
  }
  const { defaultPath } = parsed.data;
  const answer = await show({
    properties: ['openDirectory', 'createDirectory'],
    ...(defaultPath && path.isAbsolute(defaultPath) ? { defaultPath } : {}),
  });
  const picked = answer.filePaths[0];
  if (answer.canceled || !picked) return { ok: true, value: { path: null } };
  // The OS answers a folder; say so plainly if it is gone by now rather than hand the renderer a dead path.
  if (!path.isAbsolute(picked) || !isFolder(picked)) {
    return { ok: false, error: { code: 'invalid_input', message: `${picked} is not an existing folder` } };
  }
  return { ok: true, value: { path: picked } };
}

function isFolder(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

// Settings → Hosts over IPC: the host the window shows, and choosing another (parsed with zod and checked by the
// HostChooser in main before anything is saved or switched). Only our own window may ask.
import { type BrowserWindow, type IpcMainInvokeEvent, ipcMain } from 'electron';
import type { Result } from '../../src-shared/errors';
import type { HostView } from '../../src-shared/hosts';
import { CHOOSE_HOST_CHANNEL, CURRENT_HOST_CHANNEL } from '../../src-shared/preload-api';
import type { HostChooser } from '../remote/host-chooser';

const FORBIDDEN: Result<never> = { ok: false, error: { code: 'forbidden', message: 'IPC from an unknown sender' } };

export function registerHostsIpc(chooser: HostChooser, window: BrowserWindow): () => void {
  const fromOurWindow = (event: IpcMainInvokeEvent) =>
    !window.isDestroyed() && event.sender === window.webContents && event.senderFrame === window.webContents.mainFrame;
  ipcMain.handle(
    CURRENT_HOST_CHANNEL,
    async (event): Promise<Result<HostView>> =>
      fromOurWindow(event) ? { ok: true, value: chooser.current() } : FORBIDDEN,
  );
  ipcMain.handle(
    CHOOSE_HOST_CHANNEL,
    async (event, input: unknown): Promise<Result<HostView>> =>
      fromOurWindow(event) ? chooser.choose(input) : FORBIDDEN,
  );
  return () => {
    ipcMain.removeHandler(CURRENT_HOST_CHANNEL);
    ipcMain.removeHandler(CHOOSE_HOST_CHANNEL);
  };
}

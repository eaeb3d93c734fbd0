// IPC registration derived from the contract: one ipcMain.handle per operation, answering a Result; only our own
// window may call, and every input is validated by `invoke` before use. Events are pushed to the window.
import { type BrowserWindow, type IpcMainInvokeEvent, ipcMain } from 'electron';
import { IPC_EVENT_CHANNEL, ipcChannel, OPERATION_NAMES } from '../../src-shared/contract';
import { MaestroError, type Result } from '../../src-shared/errors';
import type { Maestro } from '../app/create-maestro';

export function registerIpc(maestro: Maestro, window: BrowserWindow): () => void {
  const fromOurWindow = (event: IpcMainInvokeEvent) =>
    !window.isDestroyed() && event.sender === window.webContents && event.senderFrame === window.webContents.mainFrame;

  for (const name of OPERATION_NAMES) {
    ipcMain.handle(ipcChannel(name), async (event, input: unknown): Promise<Result<unknown>> => {
      if (!fromOurWindow(event)) {
        return { ok: false, error: { code: 'forbidden', message: 'IPC from an unknown sender' } };
      }
      try {
        return { ok: true, value: await maestro.invoke(name, input) };
      } catch (error) {
        if (error instanceof MaestroError) return { ok: false, error: error.toBody() };
        console.error(`IPC ${name} failed:`, error);
        return { ok: false, error: { code: 'internal', message: 'internal error' } };
      }
    });
  }
  const unsubscribe = maestro.store.subscribe((event) => {
    if (!window.isDestroyed()) window.webContents.send(IPC_EVENT_CHANNEL, event);
  });
  return () => {
    unsubscribe();
    for (const name of OPERATION_NAMES) ipcMain.removeHandler(ipcChannel(name));
  };
}

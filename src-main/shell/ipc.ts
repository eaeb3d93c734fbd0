// IPC registration derived from the contract: one ipcMain.handle per operation, forwarded to the core (in its own
// process) and answering its Result; only our own window may call, and every input is validated by the core's
// `invoke` before use. The core's events, and its status when it restarts, are pushed to the window. Beside the
// contract, the desktop-only folder picker, the task the window shows, opening a task in it, and showing the data
// folder.
import { BrowserWindow, dialog, type IpcMainEvent, type IpcMainInvokeEvent, ipcMain, shell } from 'electron';
import { IPC_EVENT_CHANNEL, ipcChannel, OPERATION_NAMES } from '../../src-shared/contract';
import type { Result } from '../../src-shared/errors';
import type { MaestroEvent } from '../../src-shared/events';
import {
  CORE_STATUS_CHANNEL,
  type CoreStatus,
  EVENTS_JOINED_CHANNEL,
  OPEN_DATA_FOLDER_CHANNEL,
  OPEN_TASK_CHANNEL,
  PICK_FOLDER_CHANNEL,
  VIEWING_TASK_CHANNEL,
} from '../../src-shared/preload-api';
import type { CoreConnection } from '../app/core-connection';
import { parseViewingTask, type ViewState } from '../events/desktop-notices';
import { openDataFolder } from './data-folder';
import { pickFolder } from './folder-picker';

/** What the window shows, for the OS notifications; and how to open a task in it. */
export interface WindowView {
  view(): ViewState;
  openTask(taskId: string): void;
}

export function registerIpc(
  core: CoreConnection & { onStatus?(listener: (status: CoreStatus) => void): () => void },
  window: BrowserWindow,
): { view: WindowView; dispose: () => void } {
  const fromOurWindow = (event: IpcMainInvokeEvent | IpcMainEvent) =>
    !window.isDestroyed() && event.sender === window.webContents && event.senderFrame === window.webContents.mainFrame;

  for (const name of OPERATION_NAMES) {
    ipcMain.handle(ipcChannel(name), async (event, input: unknown): Promise<Result<unknown>> => {
      if (!fromOurWindow(event)) {
        return { ok: false, error: { code: 'forbidden', message: 'IPC from an unknown sender' } };
      }
      return core.call(name, input);
    });
  }
  ipcMain.handle(PICK_FOLDER_CHANNEL, async (event, input: unknown): Promise<Result<unknown>> => {
    const sender = fromOurWindow(event) ? BrowserWindow.fromWebContents(event.sender) : null;
    if (!sender) return { ok: false, error: { code: 'forbidden', message: 'IPC from an unknown sender' } };
    try {
      // On the sender's window, so the dialog is modal to it.
      return await pickFolder(input, (options) => dialog.showOpenDialog(sender, options));
    } catch (error) {
      console.error('IPC pickFolder failed:', error);
      return { ok: false, error: { code: 'internal', message: 'internal error' } };
    }
  });
  // No input is read: the folder is the data dir main was started with.
  ipcMain.handle(OPEN_DATA_FOLDER_CHANNEL, async (event): Promise<Result<unknown>> => {
    if (!fromOurWindow(event))
      return { ok: false, error: { code: 'forbidden', message: 'IPC from an unknown sender' } };
    try {
      return await openDataFolder(core.dataDir, (folder) => shell.openPath(folder));
    } catch (error) {
      console.error('IPC openDataFolder failed:', error);
      return { ok: false, error: { code: 'internal', message: 'internal error' } };
    }
  });
  let viewingTaskId: string | null = null;
  const onViewing = (event: IpcMainEvent, input: unknown) => {
    const taskId = parseViewingTask(input);
    if (fromOurWindow(event) && taskId !== undefined) viewingTaskId = taskId;
  };
  ipcMain.on(VIEWING_TASK_CHANNEL, onViewing);
  const toWindow = (event: MaestroEvent) => {
    if (!window.isDestroyed()) window.webContents.send(IPC_EVENT_CHANNEL, event);
  };
  let held: MaestroEvent[] | undefined;
  // A window (re)loaded mid-stream: the turns being generated, whole so far, ahead of every event that follows.
  const onJoined = (event: IpcMainEvent) => {
    if (!fromOurWindow(event) || window.isDestroyed()) return;
    // The core answers from its own process: what it sends meanwhile waits, so the turns so far still come first.
    held ??= [];
    void core.liveEvents().then((live) => {
      const after = held ?? [];
      held = undefined;
      for (const e of [...live, ...after]) toWindow(e);
    });
  };
  ipcMain.on(EVENTS_JOINED_CHANNEL, onJoined);
  const unsubscribe = core.onEvent((event) => {
    if (held) held.push(event);
    else toWindow(event);
  });
  const unwatch = core.onStatus?.((status) => {
    if (!window.isDestroyed()) window.webContents.send(CORE_STATUS_CHANNEL, status);
  });
  const view: WindowView = {
    view: () => ({ focused: !window.isDestroyed() && window.isFocused() && window.isVisible(), viewingTaskId }),
    openTask: (taskId) => {
      if (!window.isDestroyed()) window.webContents.send(OPEN_TASK_CHANNEL, taskId);
    },
  };
  const dispose = () => {
    unsubscribe();
    unwatch?.();
    for (const name of OPERATION_NAMES) ipcMain.removeHandler(ipcChannel(name));
    ipcMain.removeHandler(PICK_FOLDER_CHANNEL);
    ipcMain.removeHandler(OPEN_DATA_FOLDER_CHANNEL);
    ipcMain.removeListener(VIEWING_TASK_CHANNEL, onViewing);
    ipcMain.removeListener(EVENTS_JOINED_CHANNEL, onJoined);
  };
  return { view, dispose };
}

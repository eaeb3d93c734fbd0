// The preload facade: exactly the contract's operations and one event subscription, derived from the contract, plus
// the OS folder picker. No ipcRenderer, no generic channel access, no Node.
import { contextBridge, type IpcRendererEvent, ipcRenderer } from 'electron';
import type { MaestroEvent } from '../src-shared/events';
import { IPC_EVENT_CHANNEL, ipcChannel, OPERATION_NAMES } from '../src-shared/operation-names';
import { PICK_FOLDER_CHANNEL, type PickFolderInput, PRELOAD_GLOBAL, type PreloadApi } from '../src-shared/preload-api';

const operations = Object.fromEntries(
  OPERATION_NAMES.map((name) => [name, (input: unknown) => ipcRenderer.invoke(ipcChannel(name), input)]),
);

const api = {
  ...operations,
  onEvent(listener: (event: MaestroEvent) => void) {
    const handler = (_: IpcRendererEvent, event: MaestroEvent) => listener(event);
    ipcRenderer.on(IPC_EVENT_CHANNEL, handler);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, handler);
    };
  },
  pickFolder(input: PickFolderInput) {
    return ipcRenderer.invoke(PICK_FOLDER_CHANNEL, input);
  },
} as PreloadApi;

contextBridge.exposeInMainWorld(PRELOAD_GLOBAL, api);

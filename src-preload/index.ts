// The preload facade: exactly the contract's operations and one event subscription, derived from the contract, plus
// the desktop shell's own calls (the OS folder picker, the task being viewed, opening a task from a notification,
// showing the data folder, the core process's status, the host shown and choosing another). No ipcRenderer, no generic channel access, no Node.
import { contextBridge, type IpcRendererEvent, ipcRenderer } from 'electron';
import type { MaestroEvent } from '../src-shared/events';
import { IPC_EVENT_CHANNEL, ipcChannel, OPERATION_NAMES } from '../src-shared/operation-names';
import {
  CHOOSE_HOST_CHANNEL,
  CORE_STATUS_CHANNEL,
  type CoreStatus,
  CURRENT_HOST_CHANNEL,
  EVENTS_JOINED_CHANNEL,
  OPEN_DATA_FOLDER_CHANNEL,
  OPEN_TASK_CHANNEL,
  PICK_FOLDER_CHANNEL,
  type PickFolderInput,
  PRELOAD_GLOBAL,
  type PreloadApi,
  VIEWING_TASK_CHANNEL,
} from '../src-shared/preload-api';

const operations = Object.fromEntries(
  OPERATION_NAMES.map((name) => [name, (input: unknown) => ipcRenderer.invoke(ipcChannel(name), input)]),
);

const api = {
  ...operations,
  onEvent(listener: (event: MaestroEvent) => void) {
    const handler = (_: IpcRendererEvent, event: MaestroEvent) => listener(event);
    ipcRenderer.on(IPC_EVENT_CHANNEL, handler);
    ipcRenderer.send(EVENTS_JOINED_CHANNEL);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, handler);
    };
  },
  pickFolder(input: PickFolderInput) {
    return ipcRenderer.invoke(PICK_FOLDER_CHANNEL, input);
  },
  setViewingTask(taskId: string | null) {
    ipcRenderer.send(VIEWING_TASK_CHANNEL, taskId);
  },
  onOpenTask(listener: (taskId: string) => void) {
    const handler = (_: IpcRendererEvent, taskId: unknown) => {
      if (typeof taskId === 'string') listener(taskId);
    };
    ipcRenderer.on(OPEN_TASK_CHANNEL, handler);
    return () => {
      ipcRenderer.removeListener(OPEN_TASK_CHANNEL, handler);
    };
  },
  openDataFolder() {
    return ipcRenderer.invoke(OPEN_DATA_FOLDER_CHANNEL);
  },
  onCoreStatus(listener: (status: CoreStatus) => void) {
    const handler = (_: IpcRendererEvent, status: CoreStatus) => listener(status);
    ipcRenderer.on(CORE_STATUS_CHANNEL, handler);
    return () => {
      ipcRenderer.removeListener(CORE_STATUS_CHANNEL, handler);
    };
  },
  currentHost() {
    return ipcRenderer.invoke(CURRENT_HOST_CHANNEL);
  },
  chooseHost(input: unknown) {
    return ipcRenderer.invoke(CHOOSE_HOST_CHANNEL, input);
  },
} as PreloadApi;

contextBridge.exposeInMainWorld(PRELOAD_GLOBAL, api);

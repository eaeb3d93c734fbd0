// The object the preload exposes as `window.maestro`: one method per contract operation (answering a Result), an
// event subscription that returns its disposer, and the desktop-only calls (the folder picker, the task on screen,
// opening the data folder). Nothing else crosses into the renderer.
import type { OperationName, OpInput, OpOutput } from './contract';
import type { Result } from './errors';
import type { MaestroEvent } from './events';
import type { HostChoiceInput, HostView } from './hosts';

/**
 * The OS folder picker. It exists only inside Electron, so it is not a contract operation (the HTTP bridge has no
 * window to open it on); the renderer's client offers it as an optional capability.
 */
export interface PickFolderInput {
  /** Where the dialog opens; used only when it is an absolute path. */
  defaultPath?: string;
}
/** `path` is null when the user cancelled. */
export interface PickFolderOutput {
  path: string | null;
}

/** The picker's IPC channel: formed here only, used by the preload and src-main/shell/folder-picker.ts. */
export const PICK_FOLDER_CHANNEL = 'maestro:shell:pickFolder';
/** Renderer → main: the task open in the task view (null: none), so no OS notification is shown for it. */
export const VIEWING_TASK_CHANNEL = 'maestro:shell:viewingTask';
/** The window starts listening to events: main sends it the turns being generated now first (see Store.liveEvents). */
export const EVENTS_JOINED_CHANNEL = 'maestro:shell:eventsJoined';
/** Main → renderer: open this task (a notification or the tray menu was clicked). */
export const OPEN_TASK_CHANNEL = 'maestro:shell:openTask';
/**
 * Renderer → main: show MAESTRO's data folder in the OS file manager. It takes nothing: main opens its own data dir,
 * never a path the renderer names. Electron only (over HTTP there is no desktop to show it on).
 */
export const OPEN_DATA_FOLDER_CHANNEL = 'maestro:shell:openDataFolder';

/** Main → renderer: the desktop's core process is running, or stopped unasked and is being started again. */
export const CORE_STATUS_CHANNEL = 'maestro:shell:coreStatus';
export type CoreStatus =
  | { state: 'running' }
  | {
      state: 'restarting';
      attempt: number;
      inMs: number;
      exitCode: number | null;
      /** A remote host's name (Settings → Hosts) whose connection dropped and is being made again; absent: the core. */
      host?: string;
    };

/**
 * Renderer → main, Settings → Hosts: the host the window shows, and showing another (main checks it, saves it and
 * switches every operation and the event stream to it; the window then reloads). Electron only: a page served by a
 * host shows that host.
 */
export const CURRENT_HOST_CHANNEL = 'maestro:shell:currentHost';
export const CHOOSE_HOST_CHANNEL = 'maestro:shell:chooseHost';

export type PreloadApi = { [N in OperationName]: (input: OpInput<N>) => Promise<Result<OpOutput<N>>> } & {
  onEvent(listener: (event: MaestroEvent) => void): () => void;
  pickFolder(input: PickFolderInput): Promise<Result<PickFolderOutput>>;
  setViewingTask(taskId: string | null): void;
  onOpenTask(listener: (taskId: string) => void): () => void;
  openDataFolder(): Promise<Result<{ opened: true }>>;
  onCoreStatus(listener: (status: CoreStatus) => void): () => void;
  currentHost(): Promise<Result<HostView>>;
  chooseHost(input: HostChoiceInput): Promise<Result<HostView>>;
};

export const PRELOAD_GLOBAL = 'maestro';

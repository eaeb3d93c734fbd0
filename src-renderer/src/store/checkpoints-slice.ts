// The selected task's checkpoints (listCheckpoints: each with the files it recorded as changed, the rewinds, whether
// the task has checkpoints at all), reloaded as its steps run; the task's files-changed view (getTaskChanges) with
// "Revert this file"; rewind at a Send and its undo; fork at a Send; and the data dir's disk use for Settings.
import type { StateCreator } from 'zustand';
import type { RewindMode } from '../../../src-shared/checkpoints';
import type { Task } from '../../../src-shared/entities';
import { type ApiError, type MaestroApi, type OpOutput, toApiError } from '../api/client';
import { type CheckpointIndex, indexCheckpoints } from './checkpoint-index';
import { collapsedReload } from './collapsed-reload';
import type { ActionOutcome } from './detail-slice';
import type { AppState, LoadState } from './types';

export type CheckpointList = OpOutput<'listCheckpoints'>;
export type TaskChanges = OpOutput<'getTaskChanges'>;
export type CheckpointUsage = OpOutput<'getCheckpointUsage'>;

/** What a rewind, a file revert or an undo did, shown with its Undo (when the state before was kept) until dismissed. */
export interface Restore {
  taskId: string;
  action: 'rewind' | 'revert' | 'undo';
  mode: RewindMode;
  /** The N of the Send rewound to (rewind only). */
  send: number | null;
  /** The file reverted (revert only). */
  path: string | null;
  restored: string[];
  removed: string[];
  /** Files changed outside the agent since the last checkpoint that the rewind overwrote (the undo keeps them). */
  edited: string[];
  undoCheckpointId: string | null;
}

/** What a rewind would do, asked before it is confirmed (a dry run writes nothing). */
export type RewindPreview =
  | { ok: true; restored: string[]; removed: string[]; edited: string[] }
  | { ok: false; error: ApiError };

/** The confirmation a Send's menu opened (kept here, not in the feed's row, which scrolls out and unmounts). */
export type CheckpointDialog =
  | { kind: 'rewind'; taskId: string; mode: RewindMode; send: number; label: string; checkpointId: string }
  | { kind: 'fork'; taskId: string; send: number; label: string };

export interface CheckpointsSlice {
  /** For the selected task only; null until its first answer (and while the host has no checkpoints to give). */
  checkpoints: { taskId: string; list: CheckpointList; index: CheckpointIndex } | null;
  taskChanges: { taskId: string; load: LoadState; data: TaskChanges | null; error: string | null } | null;
  restore: Restore | null;
  checkpointUsage: { data: CheckpointUsage | null; error: string | null } | null;
  checkpointDialog: CheckpointDialog | null;
  openCheckpointDialog(dialog: CheckpointDialog | null): void;
  refreshCheckpoints(taskId: string): Promise<void>;
  loadTaskChanges(taskId: string): Promise<void>;
  /** What a rewind to `checkpointId` would write back, remove and overwrite of the person's own edits. */
  previewRewind(taskId: string, checkpointId: string, mode: RewindMode): Promise<RewindPreview>;
  /** `send`: the N of the Send whose checkpoint it is, said in the notice afterwards. */
  rewindTask(taskId: string, checkpointId: string, mode: RewindMode, send: number | null): Promise<ActionOutcome>;
  revertTaskFile(taskId: string, path: string): Promise<ActionOutcome>;
  /** Rewinds to the state the last restore kept (its undoCheckpointId), in the same mode. */
  undoRestore(): Promise<ActionOutcome>;
  dismissRestore(): void;
  /** Forks at Send #send and opens the new task. */
  forkTask(taskId: string, send: number, instruction?: string): Promise<ActionOutcome>;
  loadCheckpointUsage(): Promise<void>;
}

export const createCheckpointsSlice =
  (api: MaestroApi): StateCreator<AppState, [], [], CheckpointsSlice> =>
  (set, get) => {
    const shown = (taskId: string) => get().selectedTaskId === taskId;

    const load = async (taskId: string) => {
      try {
        const list = await api.listCheckpoints({ taskId });
        if (shown(taskId))
          set({ checkpoints: { taskId, list, index: indexCheckpoints(list.checkpoints, list.rewinds) } });
      } catch {
        // The chat shows no checkpoint until an answer comes; the next step or selection asks again.
        if (shown(taskId) && get().checkpoints?.taskId !== taskId) set({ checkpoints: null });
      }
    };
    const refreshCheckpoints = collapsedReload(load, shown);

    /** After files or the conversation changed under the task: everything that shows them is loaded again. */
    const reloadAfter = (taskId: string) => {
      void refreshCheckpoints(taskId);
      if (get().taskChanges?.taskId === taskId) void get().loadTaskChanges(taskId);
      if (shown(taskId)) void get().refreshDetail();
    };

    const restoreWith = async (
      taskId: string,
      run: () => Promise<OpOutput<'revertTaskFile'> & { task?: Task; edited?: string[] }>,
      restore: Omit<Restore, 'restored' | 'removed' | 'edited' | 'undoCheckpointId' | 'taskId'>,
    ): Promise<ActionOutcome> => {
      try {
        const done = await run();
        if (done.task) get().fold({ kind: 'task', task: done.task });
        set({
          restore: {
            taskId,
            ...restore,
            restored: done.restored,
            removed: done.removed,
            edited: done.edited ?? [],
            undoCheckpointId: done.undoCheckpointId,
          },
        });
        reloadAfter(taskId);
        return { ok: true };
      } catch (error) {
        return { ok: false, error: toApiError(error) };
      }
    };

    return {
      checkpoints: null,
      taskChanges: null,
      restore: null,
      checkpointUsage: null,
      checkpointDialog: null,

      openCheckpointDialog(dialog) {
        set({ checkpointDialog: dialog });
      },

      refreshCheckpoints,

      async loadTaskChanges(taskId) {
        const previous = get().taskChanges;
        const data = previous?.taskId === taskId ? previous.data : null;
        set({ taskChanges: { taskId, load: 'loading', data, error: null } });
        try {
          const answer = await api.getTaskChanges({ taskId });
          set({ taskChanges: { taskId, load: 'ready', data: answer, error: null } });
        } catch (error) {
          set({ taskChanges: { taskId, load: 'error', data, error: toApiError(error).message } });
        }
      },

      async previewRewind(taskId, checkpointId, mode) {
        try {
          const { restored, removed, edited } = await api.rewindTask({ taskId, checkpointId, mode, dryRun: true });
          return { ok: true, restored, removed, edited };
        } catch (error) {
          return { ok: false, error: toApiError(error) };
        }
      },

      rewindTask(taskId, checkpointId, mode, send) {
        return restoreWith(taskId, () => api.rewindTask({ taskId, checkpointId, mode }), {
          action: 'rewind',
          mode,
          send,
          path: null,
        });
      },

      revertTaskFile(taskId, path) {
        return restoreWith(taskId, () => api.revertTaskFile({ taskId, path }), {
          action: 'revert',
          mode: 'files',
          send: null,
          path,
        });
      },

      async undoRestore() {
        const last = get().restore;
        if (!last?.undoCheckpointId) return { ok: true };
        const { taskId, undoCheckpointId, mode } = last;
        return restoreWith(taskId, () => api.rewindTask({ taskId, checkpointId: undoCheckpointId, mode }), {
          action: 'undo',
          mode,
          send: null,
          path: null,
        });
      },

      dismissRestore() {
        set({ restore: null });
      },

      async forkTask(taskId, send, instruction) {
        try {
          const { task, job } = await api.forkTask({ taskId, send, ...(instruction ? { instruction } : {}) });
          get().fold({ kind: 'task', task }, ...(job ? [{ kind: 'job' as const, job }] : []));
          void get().selectTask(task.id);
          return { ok: true };
        } catch (error) {
          return { ok: false, error: toApiError(error) };
        }
      },

      async loadCheckpointUsage() {
        try {
          set({ checkpointUsage: { data: await api.getCheckpointUsage({}), error: null } });
        } catch (error) {
          set({ checkpointUsage: { data: null, error: toApiError(error).message } });
        }
      },
    };
  };

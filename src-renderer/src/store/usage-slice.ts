// The selected task's usage (getUsage: Invoke → AgentTurn → LlmCall sums), loaded with the task and reloaded when
// an AgentTurn of it ends, reloads collapsed (collapsed-reload.ts): a long task's usage costs the host a while.
import type { StateCreator } from 'zustand';
import { type MaestroApi, type OpOutput, toApiError } from '../api/client';
import { collapsedReload } from './collapsed-reload';
import type { AppState, LoadState } from './types';

export type TaskUsage = OpOutput<'getUsage'>;

export interface UsageSlice {
  /** For the selected task only; null before the first answer. */
  usage: { taskId: string; data: TaskUsage | null; load: LoadState; error: string | null } | null;
  /** (Re)loads the usage of `taskId` when it is the selected task. */
  refreshUsage(taskId: string): Promise<void>;
}

export const createUsageSlice =
  (api: MaestroApi): StateCreator<AppState, [], [], UsageSlice> =>
  (set, get) => {
    const load = async (taskId: string): Promise<void> => {
      const current = get().usage;
      if (current?.taskId !== taskId) set({ usage: { taskId, data: null, load: 'loading', error: null } });
      try {
        const data = await api.getUsage({ taskId });
        if (get().selectedTaskId === taskId) set({ usage: { taskId, data, load: 'ready', error: null } });
      } catch (error) {
        if (get().selectedTaskId !== taskId) return;
        const previous = get().usage;
        const data = previous?.taskId === taskId ? previous.data : null;
        set({ usage: { taskId, data, load: 'error', error: toApiError(error).message } });
      }
    };

    return {
      usage: null,

      refreshUsage: collapsedReload(load, (taskId) => get().selectedTaskId === taskId),
    };
  };

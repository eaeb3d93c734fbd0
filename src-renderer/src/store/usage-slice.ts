// The selected task's usage (getUsage: Invoke → AgentTurn → LlmCall sums), loaded with the task and reloaded when
// an AgentTurn of it ends. Reloads asked for while one is in flight collapse into one more after it, and follow one
// another at most every RELOAD_GAP_MS: a long task's usage costs the host a while, and a job streaming meanwhile
// must not wait behind it after every turn.
import type { StateCreator } from 'zustand';
import { type MaestroApi, type OpOutput, toApiError } from '../api/client';
import type { AppState, LoadState } from './types';

export type TaskUsage = OpOutput<'getUsage'>;

export const RELOAD_GAP_MS = 2000;

export interface UsageSlice {
  /** For the selected task only; null before the first answer. */
  usage: { taskId: string; data: TaskUsage | null; load: LoadState; error: string | null } | null;
  /** (Re)loads the usage of `taskId` when it is the selected task. */
  refreshUsage(taskId: string): Promise<void>;
}

export const createUsageSlice =
  (api: MaestroApi): StateCreator<AppState, [], [], UsageSlice> =>
  (set, get) => {
    // Per task: a load is in flight, and whether another was asked for meanwhile. Kept out of the state on purpose.
    const inFlight = new Map<string, { again: boolean }>();

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

      async refreshUsage(taskId) {
        if (get().selectedTaskId !== taskId) return;
        const running = inFlight.get(taskId);
        if (running) {
          running.again = true;
          return;
        }
        const marker = { again: false };
        inFlight.set(taskId, marker);
        try {
          do {
            marker.again = false;
            await load(taskId);
            if (marker.again) await new Promise((resolve) => setTimeout(resolve, RELOAD_GAP_MS));
          } while (marker.again && get().selectedTaskId === taskId);
        } finally {
          inFlight.delete(taskId);
        }
      },
    };
  };

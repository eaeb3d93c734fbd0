// The selected task's usage (getUsage: Invoke → AgentTurn → LlmCall sums, with $ where the models have prices) and
// its context gauge (getContextGauge), loaded with the task and reloaded when an AgentTurn of it ends, reloads
// collapsed (collapsed-reload.ts): a long task's usage costs the host a while. The gauge is asked for beside the
// usage, not after it: its first answer may wait on the model server's list.
import type { StateCreator } from 'zustand';
import { type MaestroApi, type OpOutput, toApiError } from '../api/client';
import { collapsedReload } from './collapsed-reload';
import type { AppState, LoadState } from './types';

export type TaskUsage = OpOutput<'getUsage'>;
export type ContextGauge = NonNullable<OpOutput<'getContextGauge'>['context']>;

export interface UsageSlice {
  /** For the selected task only; null before the first answer. */
  usage: { taskId: string; data: TaskUsage | null; load: LoadState; error: string | null } | null;
  /** The selected task's context gauge; `gauge` null: the window is unknown (no gauge is shown). */
  contextGauge: { taskId: string; gauge: ContextGauge | null } | null;
  /** (Re)loads the usage and the context gauge of `taskId` when it is the selected task. */
  refreshUsage(taskId: string): Promise<void>;
}

/** The selected task's total in USD: null while unknown (a model without a price), for a header chip to show. */
export const selectTaskUsd = (taskId: string) => (s: AppState) =>
  s.usage?.taskId === taskId ? (s.usage.data?.totalUsd ?? null) : null;

export const createUsageSlice =
  (api: MaestroApi): StateCreator<AppState, [], [], UsageSlice> =>
  (set, get) => {
    const loadUsage = async (taskId: string): Promise<void> => {
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

    const loadGauge = async (taskId: string): Promise<void> => {
      if (get().contextGauge?.taskId !== taskId) set({ contextGauge: null });
      try {
        const { context } = await api.getContextGauge({ taskId });
        if (get().selectedTaskId === taskId) set({ contextGauge: { taskId, gauge: context } });
      } catch {
        // No gauge rather than a stale or guessed one; the next turn asks again.
        if (get().selectedTaskId === taskId) set({ contextGauge: { taskId, gauge: null } });
      }
    };

    return {
      usage: null,
      contextGauge: null,

      refreshUsage: collapsedReload(
        (taskId) => Promise.all([loadUsage(taskId), loadGauge(taskId)]).then(() => undefined),
        (taskId) => get().selectedTaskId === taskId,
      ),
    };
  };

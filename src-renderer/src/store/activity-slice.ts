// The open task's activity (P7.18): its latest persisted events loaded with listTaskEvents, then every pushed event
// of that task folded in (persisted ones once per seq, transient LlmCall ends as they come).
import type { StateCreator } from 'zustand';
import type { MaestroEvent } from '../../../src-shared/events';
import { type MaestroApi, toApiError } from '../api/client';
import { type ActivityEvent, appendActivity, mergeActivity } from './activity';
import type { AppState, LoadState } from './types';

export interface ActivitySlice {
  /** For one task (the open one); null before it is loaded. */
  activity: { taskId: string; events: readonly ActivityEvent[]; load: LoadState; error: string | null } | null;
  /** (Re)loads the task's events and merges them with those that arrived live. */
  loadActivity(taskId: string): Promise<void>;
  foldActivityEvent(event: MaestroEvent): void;
}

export const createActivitySlice =
  (api: MaestroApi): StateCreator<AppState, [], [], ActivitySlice> =>
  (set, get) => ({
    activity: null,

    async loadActivity(taskId) {
      set((state) => {
        const kept = state.activity?.taskId === taskId ? state.activity.events : [];
        return { activity: { taskId, events: kept, load: 'loading', error: null } };
      });
      try {
        const { events } = await api.listTaskEvents({ taskId });
        set((state) =>
          state.activity?.taskId === taskId
            ? { activity: { taskId, events: mergeActivity(state.activity.events, events), load: 'ready', error: null } }
            : {},
        );
      } catch (error) {
        const message = toApiError(error).message;
        set((state) =>
          state.activity?.taskId === taskId ? { activity: { ...state.activity, load: 'error', error: message } } : {},
        );
      }
    },

    foldActivityEvent(event) {
      const current = get().activity;
      if (current?.taskId !== event.taskId) return;
      const events = appendActivity(current.events, event);
      if (events !== current.events) set({ activity: { ...current, events } });
    },
  });

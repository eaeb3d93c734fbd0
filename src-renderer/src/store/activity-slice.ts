// The open task's activity (P7.18): its latest persisted events loaded with listTaskEvents into the entities, where
// every pushed event of that task folds in (persisted ones once per seq, transient LlmCall ends as they come); here
// only whether that load is on its way or failed (selectActivity shows both together).
import type { StateCreator } from 'zustand';
import { type MaestroApi, toApiError } from '../api/client';
import type { AppState, LoadState } from './types';

export interface ActivitySlice {
  /** For one task (the open timeline's); null before one is loaded. */
  activityLoad: { taskId: string; load: LoadState; error: string | null } | null;
  /** (Re)loads the task's events and merges them with those that arrived live. */
  loadActivity(taskId: string): Promise<void>;
}

export const createActivitySlice =
  (api: MaestroApi): StateCreator<AppState, [], [], ActivitySlice> =>
  (set, get) => ({
    activityLoad: null,

    async loadActivity(taskId) {
      get().fold({ kind: 'activity.open', taskId });
      set({ activityLoad: { taskId, load: 'loading', error: null } });
      const stillOpen = () => get().activityLoad?.taskId === taskId;
      try {
        const { events } = await api.listTaskEvents({ taskId });
        get().fold({ kind: 'activity.page', taskId, events });
        if (stillOpen()) set({ activityLoad: { taskId, load: 'ready', error: null } });
      } catch (error) {
        const message = toApiError(error).message;
        if (stillOpen()) set({ activityLoad: { taskId, load: 'error', error: message } });
      }
    },
  });

// Short-lived news as toasts (job finished, comment accepted, P7.19) and the failures the user has dismissed from the
// notification center. Toasts are plain data; the component that shows them owns their timers.
import type { StateCreator } from 'zustand';
import type { AppState } from './types';

export type ToastTone = 'info' | 'ok' | 'error';

export interface Toast {
  id: number;
  tone: ToastTone;
  text: string;
  /** The task it is about; clicking the toast opens it. */
  taskId?: string;
}

export interface NoticesSlice {
  toasts: Toast[];
  /** Job ids of failures dismissed from the notification center (kept in localStorage across reloads). */
  dismissedFailures: string[];
  pushToast(toast: Omit<Toast, 'id'>): void;
  dismissToast(id: number): void;
  dismissFailure(jobId: string): void;
}

const DISMISSED_KEY = 'maestro.dismissedFailures';
const MAX_TOASTS = 4;
const MAX_DISMISSED = 200;

function readDismissed(): string[] {
  try {
    const raw = globalThis.localStorage?.getItem(DISMISSED_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

function writeDismissed(ids: string[]): void {
  try {
    globalThis.localStorage?.setItem(DISMISSED_KEY, JSON.stringify(ids));
  } catch {
    // Storage full or unavailable: the dismissal lasts until the next reload.
  }
}

export const createNoticesSlice: StateCreator<AppState, [], [], NoticesSlice> = (set, get) => {
  let nextId = 1;
  return {
    toasts: [],
    dismissedFailures: readDismissed(),

    pushToast(toast) {
      const id = nextId++;
      set((state) => ({ toasts: [...state.toasts, { ...toast, id }].slice(-MAX_TOASTS) }));
    },

    dismissToast(id) {
      set((state) => ({ toasts: state.toasts.filter((t) => t.id !== id) }));
    },

    dismissFailure(jobId) {
      if (get().dismissedFailures.includes(jobId)) return;
      const next = [...get().dismissedFailures, jobId].slice(-MAX_DISMISSED);
      set({ dismissedFailures: next });
      writeDismissed(next);
    },
  };
};

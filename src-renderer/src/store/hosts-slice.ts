// Settings → Hosts in the store: the host the window shows (inside Electron from main; in a browser, the host that
// served the page, by its /health), and choosing another, which only the desktop app can do.
import type { StateCreator } from 'zustand';
import type { HostChoiceInput, HostView } from '../../../src-shared/hosts';
import { type ApiError, type MaestroClient, toApiError } from '../api/client';
import type { AppState } from './types';

export interface HostsSlice {
  /** The host shown; null until loaded. */
  host: HostView | null;
  hostError: string | null;
  /** False in a browser: the page is the host's own, and switching is the desktop app's. */
  canChooseHost: boolean;
  loadHost(): Promise<void>;
  /** null when main checked, saved and switched to it (the window then reloads); otherwise why not. */
  chooseHost(input: HostChoiceInput): Promise<ApiError | null>;
}

export const createHostsSlice =
  (client: MaestroClient): StateCreator<AppState, [], [], HostsSlice> =>
  (set) => ({
    host: null,
    hostError: null,
    canChooseHost: client.hosts !== undefined,

    async loadHost() {
      try {
        if (client.hosts) {
          set({ host: await client.hosts.current(), hostError: null });
          return;
        }
        const health = await client.api.health({});
        set({ host: { kind: 'tls', name: health.host, address: window.location.origin }, hostError: null });
      } catch (error) {
        set({ hostError: toApiError(error).message });
      }
    },

    async chooseHost(input) {
      if (!client.hosts) return null;
      try {
        set({ host: await client.hosts.choose(input), hostError: null });
        return null;
      } catch (error) {
        return toApiError(error);
      }
    },
  });

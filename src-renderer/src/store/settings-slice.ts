// The app's settings for the Settings dialog (OS notifications, kept in the data dir) with the data dir's path, and,
// inside Electron only, showing that folder in the OS file manager.
import type { StateCreator } from 'zustand';
import type { SettingsView } from '../../../src-shared/settings';
import { type ApiError, type MaestroClient, type OpInput, toApiError } from '../api/client';
import type { AppState, LoadState } from './types';

export interface SettingsSlice {
  appSettings: SettingsView | null;
  appSettingsLoad: LoadState;
  appSettingsError: string | null;
  /** False over HTTP: a browser cannot open a folder on the host, so the button is not shown. */
  canOpenDataFolder: boolean;
  loadAppSettings(): Promise<void>;
  /** null when saved; otherwise why not (the message names the field). */
  saveAppSettings(input: OpInput<'saveSettings'>): Promise<ApiError | null>;
  /** null when the folder was shown; otherwise why not. */
  openDataFolder(): Promise<ApiError | null>;
}

export const createSettingsSlice =
  (client: MaestroClient): StateCreator<AppState, [], [], SettingsSlice> =>
  (set) => ({
    appSettings: null,
    appSettingsLoad: 'idle',
    appSettingsError: null,
    canOpenDataFolder: client.openDataFolder !== undefined,

    async loadAppSettings() {
      set({ appSettingsLoad: 'loading' });
      try {
        const view = await client.api.getSettings({});
        set({ appSettings: view, appSettingsLoad: 'ready', appSettingsError: null });
      } catch (error) {
        set({ appSettingsLoad: 'error', appSettingsError: toApiError(error).message });
      }
    },

    async saveAppSettings(input) {
      try {
        const view = await client.api.saveSettings(input);
        set({ appSettings: view, appSettingsLoad: 'ready', appSettingsError: null });
        return null;
      } catch (error) {
        return toApiError(error);
      }
    },

    async openDataFolder() {
      if (!client.openDataFolder) return null;
      try {
        await client.openDataFolder();
        return null;
      } catch (error) {
        return toApiError(error);
      }
    },
  });

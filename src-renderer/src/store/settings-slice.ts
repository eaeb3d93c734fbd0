// The app's settings for the Settings dialog (OS notifications, kept in the data dir) with the data dir's path, and,
// inside Electron only, showing that folder in the OS file manager; and where Settings is open at, when something
// opened it at one section (a failed model call's "Edit profile": the profiles, that profile's form, a field of it).
import type { StateCreator } from 'zustand';
import type { SettingsView, StorageUsage } from '../../../src-shared/settings';
import { type ApiError, type MaestroClient, type OpInput, toApiError } from '../api/client';
import type { AppState, LoadState } from './types';

/** Settings' sections, in the order of its side list. */
export const SETTINGS_SECTIONS = [
  'appearance',
  'notifications',
  'checkpoints',
  'toolPolicy',
  'mcp',
  'autoPrompter',
  'profiles',
  'hosts',
  'data',
] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

/** Where Settings opens: a section, and in the profiles one, a profile's form with one of its fields. */
export interface SettingsAt {
  section: SettingsSection;
  profile?: string;
  field?: 'apiKey' | 'model' | 'baseURL' | 'contextWindow';
  /** The task whose stopped job the profile's fix is for: after a save, Settings offers to retry it. */
  retryTaskId?: string;
}

export interface SettingsSlice {
  /** Settings is open at this place; null: not opened by anything but its own button. */
  settingsAt: SettingsAt | null;
  openSettingsAt(at: SettingsAt): void;
  closeSettingsAt(): void;
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
  /** What the data dir takes (Settings → Data); null until asked. */
  storageUsage: { data: StorageUsage | null; error: string | null } | null;
  loadStorageUsage(): Promise<void>;
  /** Retention now, freed pages given back: how many bytes went, or why not. */
  cleanUpStorage(): Promise<{ ok: true; freed: number } | { ok: false; error: ApiError }>;
}

export const createSettingsSlice =
  (client: MaestroClient): StateCreator<AppState, [], [], SettingsSlice> =>
  (set) => ({
    settingsAt: null,
    openSettingsAt: (at) => set({ settingsAt: at }),
    closeSettingsAt: () => set({ settingsAt: null }),
    appSettings: null,
    appSettingsLoad: 'idle',
    appSettingsError: null,
    canOpenDataFolder: client.openDataFolder !== undefined,
    storageUsage: null,

    async loadStorageUsage() {
      try {
        set({ storageUsage: { data: await client.api.getStorageUsage({}), error: null } });
      } catch (error) {
        set({ storageUsage: { data: null, error: toApiError(error).message } });
      }
    },

    async cleanUpStorage() {
      try {
        const { before, after } = await client.api.cleanUpStorage({});
        set({ storageUsage: { data: after, error: null } });
        return { ok: true, freed: Math.max(0, before.total - after.total) };
      } catch (error) {
        return { ok: false, error: toApiError(error) };
      }
    },

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

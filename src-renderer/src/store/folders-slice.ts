// Workspace folders for the new-task composer: the host's default folder, the folders of recent tasks (newest first,
// from the backend, which leaves out MAESTRO's own ephemeral folders) and, inside Electron only, the OS folder picker.
import type { StateCreator } from 'zustand';
import { type ApiError, type MaestroClient, type OpOutput, toApiError } from '../api/client';
import type { AppState } from './types';

export type RecentFolder = OpOutput<'listRecentFolders'>['folders'][number];
export type PickOutcome = { ok: true; path: string | null } | { ok: false; error: ApiError };

export interface FoldersSlice {
  recentFolders: RecentFolder[];
  /** Where a task goes when no folder is picked; null: a scratch folder of its own. */
  defaultFolder: string | null;
  /** False over HTTP: a browser has no OS folder picker, so the form shows the text field alone. */
  canPickFolder: boolean;
  loadRecentFolders(): Promise<void>;
  /** Opens the OS folder picker; `path` is null when the user cancelled. */
  pickFolder(startIn?: string): Promise<PickOutcome>;
}

export const createFoldersSlice =
  (client: MaestroClient): StateCreator<AppState, [], [], FoldersSlice> =>
  (set) => ({
    recentFolders: [],
    defaultFolder: null,
    canPickFolder: client.pickFolder !== undefined,

    async loadRecentFolders() {
      try {
        const { folders, defaultFolder } = await client.api.listRecentFolders({});
        set({ recentFolders: folders, defaultFolder: defaultFolder ?? null });
      } catch {
        // The recent list is a shortcut: without it the folder is typed or picked.
      }
    },

    async pickFolder(startIn) {
      if (!client.pickFolder) return { ok: true, path: null };
      try {
        return { ok: true, path: await client.pickFolder(startIn ? { defaultPath: startIn } : {}) };
      } catch (error) {
        return { ok: false, error: toApiError(error) };
      }
    },
  });

// The settings files of the selected task's workspace that changed outside MAESTRO (read from main, so a reload shows
// them again), and a person's accept or reject from their card. Main answers the workspace's changes left after it.
import type { StateCreator } from 'zustand';
import type { SettingsChangeView } from '../../../src-shared/contract';
import { type MaestroApi, toApiError } from '../api/client';
import type { ActionOutcome } from './detail-slice';
import type { AppState } from './types';

export interface WorkspaceSettingsChanges {
  workspacePath: string;
  changes: SettingsChangeView[];
}

export interface SettingsChangesSlice {
  settingsChanges: WorkspaceSettingsChanges | null;
  /** Why the changes could not be listed, in main's words; null when they were. */
  settingsChangesError: string | null;
  loadSettingsChanges(workspacePath: string): Promise<void>;
  decideSettingsChange(change: SettingsChangeView, decision: 'accept' | 'reject'): Promise<ActionOutcome>;
  /**
   * Accepts the files as the cards show them, in one step; those changed since are left pending, listed again (as
   * they are now) and named in `settingsChangesRelisted` until the next decision.
   */
  acceptAllSettingsChanges(shown: readonly SettingsChangeView[]): Promise<ActionOutcome>;
  /** The files an Accept all left pending because they changed after they were shown. */
  settingsChangesRelisted: string[];
}

export const createSettingsChangesSlice =
  (api: MaestroApi): StateCreator<AppState, [], [], SettingsChangesSlice> =>
  (set) => ({
    settingsChanges: null,
    settingsChangesError: null,
    settingsChangesRelisted: [],

    async loadSettingsChanges(workspacePath) {
      try {
        const { changes } = await api.listSettingsChanges({ workspacePath });
        set({ settingsChanges: { workspacePath, changes }, settingsChangesError: null });
      } catch (error) {
        set({ settingsChanges: { workspacePath, changes: [] }, settingsChangesError: toApiError(error).message });
      }
    },

    async decideSettingsChange(change, decision) {
      const { workspacePath, file } = change;
      try {
        const { changes } =
          decision === 'accept'
            ? await api.acceptSettingsChange({ workspacePath, file, currentSha256: change.currentSha256 })
            : await api.rejectSettingsChange({ workspacePath, file });
        set({ settingsChanges: { workspacePath, changes }, settingsChangesError: null, settingsChangesRelisted: [] });
        return { ok: true };
      } catch (error) {
        return { ok: false, error: toApiError(error) };
      }
    },

    async acceptAllSettingsChanges(shown) {
      const workspacePath = shown[0]?.workspacePath;
      if (workspacePath === undefined) return { ok: true };
      try {
        const { changes, notAccepted } = await api.acceptAllSettingsChanges({
          workspacePath,
          files: shown.map((c) => ({ file: c.file, currentSha256: c.currentSha256 })),
        });
        set({
          settingsChanges: { workspacePath, changes },
          settingsChangesError: null,
          settingsChangesRelisted: notAccepted,
        });
        return { ok: true };
      } catch (error) {
        return { ok: false, error: toApiError(error) };
      }
    },
  });

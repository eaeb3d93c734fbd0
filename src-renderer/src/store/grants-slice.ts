// The selected task's grants (what a person approved "for this task"): loaded when its approvals change, and revoked
// one at a time from the task view.
import type { StateCreator } from 'zustand';
import type { TaskGrant } from '../../../src-shared/grants';
import { type MaestroApi, toApiError } from '../api/client';
import type { ActionOutcome } from './detail-slice';
import type { AppState } from './types';

export interface GrantsSlice {
  /** For the selected task only; revoked grants included (the view shows the ones in force). */
  grants: { taskId: string; list: TaskGrant[] } | null;
  refreshGrants(taskId: string): Promise<void>;
  revokeGrant(taskId: string, grantId: string): Promise<ActionOutcome>;
}

export const createGrantsSlice =
  (api: MaestroApi): StateCreator<AppState, [], [], GrantsSlice> =>
  (set, get) => ({
    grants: null,

    async refreshGrants(taskId) {
      try {
        const { grants } = await api.listTaskGrants({ taskId });
        if (get().selectedTaskId === taskId) set({ grants: { taskId, list: grants } });
      } catch {
        // The list stays as it was; the next approval or selection loads it again.
      }
    },

    async revokeGrant(taskId, grantId) {
      try {
        const { grant } = await api.revokeTaskGrant({ taskId, grantId });
        const current = get().grants;
        if (current?.taskId === taskId) {
          set({ grants: { taskId, list: current.list.map((g) => (g.id === grant.id ? grant : g)) } });
        }
        return { ok: true };
      } catch (error) {
        void get().refreshGrants(taskId);
        return { ok: false, error: toApiError(error) };
      }
    },
  });

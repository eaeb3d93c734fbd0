// The LLM profiles (Settings and the create form's picker), the last "Test connection" answer per profile, a draft's
// connection test, and what leads the person to a profile: the first-run setup (Settings opened at one profile is
// settings-slice.ts's openSettingsAt), and "Retry now" for a job waiting out its profile's failure. Keys go out in a
// save or a test and never come back: a profile shows only whether it has one and its last 4 characters.
import type { StateCreator } from 'zustand';
import type { ProfileView } from '../../../src-shared/contract';
import { type ApiError, type MaestroApi, type OpInput, type OpOutput, toApiError } from '../api/client';
import type { AppState, LoadState } from './types';

export type ProfileOutcome = { ok: true; profile: ProfileView } | { ok: false; error: ApiError };
export type ProfileTest = { state: 'running' } | ({ state: 'done' } & OpOutput<'testProfile'>);

export interface ProfilesSlice {
  profiles: ProfileView[];
  profileErrors: { file: string; message: string }[];
  profilesLoad: LoadState;
  profilesError: string | null;
  profileTests: Record<string, ProfileTest>;
  loadProfiles(): Promise<void>;
  saveProfile(input: OpInput<'saveProfile'>): Promise<ProfileOutcome>;
  deleteProfile(name: string): Promise<ApiError | null>;
  testProfile(name: string): Promise<void>;
  /** GET {baseURL}/models of a profile not saved yet, through main; never throws (a failure is `ok: false`). */
  listModels(draft: OpInput<'listModels'>): Promise<OpOutput<'listModels'>>;
  /** The setup shown in place of the task view (it also shows by itself while there is no profile and no task). */
  setupOpen: boolean;
  openProfileSetup(): void;
  closeProfileSetup(): void;
  /** The task's job waiting to retry tries again now; the error when main refused (e.g. it no longer waits). */
  retryNow(taskId: string): Promise<ApiError | null>;
}

export const createProfilesSlice =
  (api: MaestroApi): StateCreator<AppState, [], [], ProfilesSlice> =>
  (set, get) => ({
    profiles: [],
    profileErrors: [],
    profilesLoad: 'idle',
    profilesError: null,
    profileTests: {},

    async loadProfiles() {
      set({ profilesLoad: 'loading' });
      try {
        const { profiles, errors } = await api.listProfiles({});
        set({ profiles, profileErrors: errors, profilesLoad: 'ready', profilesError: null });
      } catch (error) {
        set({ profilesLoad: 'error', profilesError: toApiError(error).message });
      }
    },

    async saveProfile(input) {
      try {
        const { profile } = await api.saveProfile(input);
        // A saved profile may have become the default: the others' isDefault change too.
        await get().loadProfiles();
        set((s) => ({ profileTests: without(s.profileTests, profile.name) }));
        return { ok: true, profile };
      } catch (error) {
        return { ok: false, error: toApiError(error) };
      }
    },

    async deleteProfile(name) {
      try {
        await api.deleteProfile({ name });
      } catch (error) {
        return toApiError(error);
      }
      set((s) => ({ profileTests: without(s.profileTests, name) }));
      await get().loadProfiles();
      return null;
    },

    async testProfile(name) {
      set((s) => ({ profileTests: { ...s.profileTests, [name]: { state: 'running' } } }));
      let answer: OpOutput<'testProfile'>;
      try {
        answer = await api.testProfile({ name });
      } catch (error) {
        answer = { ok: false, models: [], error: toApiError(error).message };
      }
      set((s) => ({ profileTests: { ...s.profileTests, [name]: { state: 'done', ...answer } } }));
    },

    async listModels(draft) {
      try {
        return await api.listModels(draft);
      } catch (error) {
        return { ok: false, models: [], error: toApiError(error).message };
      }
    },

    setupOpen: false,
    openProfileSetup: () => set({ setupOpen: true }),
    closeProfileSetup: () => set({ setupOpen: false }),

    async retryNow(taskId) {
      try {
        // The job.changed event that follows brings the new time (and soon the running job) to every view.
        await api.retryNow({ taskId });
        return null;
      } catch (error) {
        return toApiError(error);
      }
    },
  });

function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  const { [key]: _dropped, ...rest } = record;
  return rest;
}

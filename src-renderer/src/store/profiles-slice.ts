// The LLM profiles (Settings and the create form's picker) and the last "Test connection" answer per profile. Keys
// go out in a save and never come back: a profile shows only whether it has one and its last 4 characters.
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
  });

function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  const { [key]: _dropped, ...rest } = record;
  return rest;
}

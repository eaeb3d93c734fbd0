// The one renderer store: typed slices combined over a client, handed to React through a context.
import { createContext, useContext } from 'react';
import { createStore, type StoreApi, useStore } from 'zustand';
import type { MaestroClient } from '../api/client';
import { createActivitySlice } from './activity-slice';
import { createAutoPrompterSlice } from './auto-prompter-slice';
import { createCheckpointsSlice } from './checkpoints-slice';
import { createDetailSlice } from './detail-slice';
import { createEntitySlice } from './entity-slice';
import { createFoldersSlice } from './folders-slice';
import { createGrantsSlice } from './grants-slice';
import { createHostsSlice } from './hosts-slice';
import { createLessonsSlice } from './lessons-slice';
import { createLiveSlice } from './live-slice';
import { createMcpSettingsSlice } from './mcp-settings-slice';
import { createMcpSlice } from './mcp-slice';
import { createNoticesSlice } from './notices-slice';
import { createPiecesSlice } from './pieces-slice';
import { createPrefsSlice } from './prefs-slice';
import { createProfilesSlice } from './profiles-slice';
import { createRequestsSlice } from './requests-slice';
import { createSettingsChangesSlice } from './settings-changes-slice';
import { createSettingsSlice } from './settings-slice';
import { createTasksSlice } from './tasks-slice';
import { createToolPolicySlice } from './tool-policy-slice';
import type { AppState } from './types';
import { createUsageSlice } from './usage-slice';

export type AppStore = StoreApi<AppState>;

export function createAppStore(client: MaestroClient): AppStore {
  return createStore<AppState>()((...a) => ({
    ...createEntitySlice(...a),
    ...createTasksSlice(client.api)(...a),
    ...createDetailSlice(client.api)(...a),
    ...createRequestsSlice(client.api)(...a),
    ...createGrantsSlice(client.api)(...a),
    ...createMcpSlice(client.api)(...a),
    ...createMcpSettingsSlice(client.api)(...a),
    ...createPiecesSlice(client.api)(...a),
    ...createProfilesSlice(client.api)(...a),
    ...createAutoPrompterSlice(client.api)(...a),
    ...createLiveSlice(client)(...a),
    ...createUsageSlice(client.api)(...a),
    ...createNoticesSlice(...a),
    ...createActivitySlice(client.api)(...a),
    ...createPrefsSlice(...a),
    ...createFoldersSlice(client)(...a),
    ...createToolPolicySlice(client.api)(...a),
    ...createSettingsSlice(client)(...a),
    ...createHostsSlice(client)(...a),
    ...createSettingsChangesSlice(client.api)(...a),
    ...createCheckpointsSlice(client.api)(...a),
    ...createLessonsSlice(client.api)(...a),
  }));
}

export const StoreContext = createContext<AppStore | null>(null);

export function useAppStore<T>(selector: (state: AppState) => T): T {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useAppStore outside StoreContext');
  return useStore(store, selector);
}

export type { AppState };

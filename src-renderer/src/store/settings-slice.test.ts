// Settings' app settings in the store: loaded and replaced by a save's answer, and "Open data folder" only where the
// client has that capability (Electron), never over HTTP.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type SettingsView } from '../../../src-shared/settings';
import { ApiError, type MaestroApi, type MaestroClient } from '../api/client';
import { createAppStore } from './store';

const VIEW: SettingsView = {
  settings: DEFAULT_SETTINGS,
  file: '/data/settings.json',
  error: null,
  dataDir: '/data',
  defaultWorkspace: null,
};

const client = (api: Partial<MaestroApi>, extra: Partial<MaestroClient> = {}): MaestroClient => ({
  transport: 'http',
  api: api as MaestroApi,
  subscribe: () => () => {},
  ...extra,
});

describe('the settings slice', () => {
  it('loads the settings with the data dir, and a save replaces them with main’s answer', async () => {
    const saved: unknown[] = [];
    const notifications = { ...DEFAULT_SETTINGS.notifications, kinds: { ...DEFAULT_SETTINGS.notifications.kinds } };
    notifications.kinds.succeeded = false;
    const store = createAppStore(
      client({
        getSettings: async () => VIEW,
        saveSettings: async (input) => {
          saved.push(input);
          return { ...VIEW, settings: { ...DEFAULT_SETTINGS, notifications } };
        },
      }),
    );
    await store.getState().loadAppSettings();
    expect(store.getState().appSettings?.dataDir).toBe('/data');
    expect(await store.getState().saveAppSettings({ notifications })).toBeNull();
    expect(saved).toEqual([{ notifications }]);
    expect(store.getState().appSettings?.settings.notifications.kinds.succeeded).toBe(false);
  });

  it('a failed load or save is reported, not thrown', async () => {
    const store = createAppStore(
      client({
        getSettings: async () => {
          throw new ApiError('network', 'cannot reach MAESTRO');
        },
        saveSettings: async () => {
          throw new ApiError('invalid_input', 'notifications.os: expected boolean');
        },
      }),
    );
    await store.getState().loadAppSettings();
    expect(store.getState()).toMatchObject({ appSettingsLoad: 'error', appSettingsError: 'cannot reach MAESTRO' });
    expect((await store.getState().saveAppSettings({ notifications: { os: true } }))?.message).toMatch(
      /notifications.os/,
    );
  });

  it('"Open data folder" exists only with the Electron capability, and reports its failure', async () => {
    expect(createAppStore(client({})).getState().canOpenDataFolder).toBe(false);
    let opened = 0;
    const electron = createAppStore(
      client(
        {},
        {
          openDataFolder: async () => {
            opened += 1;
            if (opened > 1) throw new ApiError('internal', 'cannot open /data: no file manager');
          },
        },
      ),
    );
    expect(electron.getState().canOpenDataFolder).toBe(true);
    expect(await electron.getState().openDataFolder()).toBeNull();
    expect((await electron.getState().openDataFolder())?.message).toBe('cannot open /data: no file manager');
    expect(opened).toBe(2);
  });

  it('opens Settings at a section (a profile, a field, the task to retry) and closes it', () => {
    const store = createAppStore(client({}));
    expect(store.getState().settingsAt).toBeNull();
    const at = { section: 'profiles', profile: 'local', field: 'apiKey', retryTaskId: 'task_1' } as const;
    store.getState().openSettingsAt(at);
    expect(store.getState().settingsAt).toEqual(at);
    store.getState().openSettingsAt({ section: 'mcp' });
    expect(store.getState().settingsAt).toEqual({ section: 'mcp' });
    store.getState().closeSettingsAt();
    expect(store.getState().settingsAt).toBeNull();
  });
});

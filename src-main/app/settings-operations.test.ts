// The app's settings in `<dataDir>/settings.json`: the defaults without a file, a round trip, a broken file reported
// with the defaults in force, bad input refused with the file unchanged, and the data dir shown.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src-shared/settings';
import { testBridge } from '../../test-support/bridge-harness';
import { tempDir, testMaestro } from '../../test-support/temp-maestro';
import { loadSettings, settingsFile } from './settings-file';

const ALL_ON = {
  os: true,
  sound: true,
  kinds: {
    ask: true,
    tool_request: true,
    package_request: true,
    mcp_auth_required: true,
    browser: true,
    settings: true,
    failed: true,
    succeeded: true,
    cancelled: true,
  },
};

describe('settings operations', () => {
  it('no file: every notification on with sound; the data dir and default workspace are shown', () => {
    const workspace = tempDir('maestro-ws-');
    const maestro = testMaestro({ defaultWorkspace: workspace });
    expect(DEFAULT_SETTINGS).toEqual({
      notifications: ALL_ON,
      checkpoints: {
        enabled: true,
        maxFileBytes: 10 * 1024 * 1024,
        keepPerTask: 500,
        keepDays: 30,
        commitOnSuccess: true,
      },
      retention: { activityDays: 30 },
      mcpSessions: { keepIdleMinutes: 10, keepSessions: 8 },
      // P2.08: Reflection after failures by default; a job gets at most 5 approved lessons, 1500 characters of them.
      lessons: { reflection: 'failures', maxLessons: 5, maxChars: 1500, retireAfterDays: 60 },
    });
    expect(maestro.invoke('getSettings', {})).toEqual({
      settings: DEFAULT_SETTINGS,
      file: settingsFile(maestro.ctx.dataDir),
      error: null,
      dataDir: maestro.ctx.dataDir,
      defaultWorkspace: workspace,
    });
    expect(fs.existsSync(settingsFile(maestro.ctx.dataDir))).toBe(false);
  });

  it('a save round-trips through the file, survives a restart, and leaves no temp file', async () => {
    const dataDir = tempDir();
    const first = testMaestro({ dataDir });
    const notifications = { ...ALL_ON, sound: false, kinds: { ...ALL_ON.kinds, succeeded: false, cancelled: false } };
    expect(first.invoke('saveSettings', { notifications }).settings).toEqual({
      notifications,
      checkpoints: DEFAULT_SETTINGS.checkpoints,
      retention: DEFAULT_SETTINGS.retention,
      mcpSessions: DEFAULT_SETTINGS.mcpSessions,
      lessons: DEFAULT_SETTINGS.lessons,
    });
    await first.close();
    const second = testMaestro({ dataDir });
    expect(second.invoke('getSettings', {})).toMatchObject({ settings: { notifications }, error: null });
    expect(fs.readdirSync(dataDir).filter((f) => f.startsWith('settings'))).toEqual(['settings.json']);
    // Fields left out get their defaults.
    expect(second.invoke('saveSettings', { notifications: { os: false } }).settings.notifications).toEqual({
      ...ALL_ON,
      os: false,
    });
  });

  it('a broken file is reported naming the file and the field, the defaults apply, and a save replaces it', () => {
    const maestro = testMaestro();
    const file = settingsFile(maestro.ctx.dataDir);
    fs.writeFileSync(file, '{"notifications":{"kinds":{"ask":"yes"}}}');
    const view = maestro.invoke('getSettings', {});
    expect(view.settings).toEqual(DEFAULT_SETTINGS);
    expect(view.error).toMatch(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: notifications.kinds.ask: `),
    );
    fs.writeFileSync(file, '{"notifications":');
    expect(loadSettings(maestro.ctx.dataDir)).toMatchObject({ settings: DEFAULT_SETTINGS, error: /not valid JSON/ });
    const fixed = maestro.invoke('saveSettings', { notifications: { ...ALL_ON, os: false } });
    expect(fixed).toMatchObject({ error: null, settings: { notifications: { os: false } } });
  });

  it('bad input → 400 naming the field; the file stays as it was', async () => {
    const b = await testBridge();
    b.maestro.invoke('saveSettings', { notifications: { sound: false } });
    const file = settingsFile(b.maestro.ctx.dataDir);
    const before = fs.readFileSync(file, 'utf8');
    for (const [body, field] of [
      [{ notifications: { os: 'no' } }, 'notifications.os'],
      [{ notifications: { kinds: { ask: true, shout: true } } }, 'notifications.kinds'],
      [{ theme: 'dark' }, ''],
    ] as const) {
      const res = await b.api('POST', '/settings', body);
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.issues.map((i: { path: unknown[] }) => i.path.join('.'))).toContain(field);
      expect(fs.readFileSync(file, 'utf8')).toBe(before);
    }
    const res = await b.api('GET', '/settings');
    expect(res.json.settings.notifications.sound).toBe(false);
  });
});

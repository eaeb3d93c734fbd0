// The desktop app itself, through Playwright's Electron support. Runs where Electron's binary is installed; where it
// is not (CI here: ELECTRON_SKIP_BINARY_DOWNLOAD), every test is skipped with the reason printed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type ElectronApplication, _electron as electron, expect, type Page, test } from '@playwright/test';
import { OPERATION_NAMES } from '../src-shared/operation-names';

const root = path.resolve(__dirname, '..');
const electronDir = path.join(root, 'node_modules', 'electron');

/** Found the way Electron's index.js finds it; not by require('electron'), which downloads a missing binary. */
function electronBinary(): string | null {
  try {
    const binary = path.join(electronDir, 'dist', fs.readFileSync(path.join(electronDir, 'path.txt'), 'utf8'));
    return fs.existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

const binary = electronBinary();
const { version } = JSON.parse(fs.readFileSync(path.join(electronDir, 'package.json'), 'utf8')) as { version: string };
const nativeBuilt = fs.existsSync(path.join(root, 'native', `electron-${version}`, 'better_sqlite3.node'));
const skipReason = !binary
  ? "Electron's binary is not installed (ELECTRON_SKIP_BINARY_DOWNLOAD, or never fetched: `node scripts/build-electron-native.mjs --ensure`); the desktop e2e cannot run on this machine"
  : !nativeBuilt
    ? 'native/ has no Electron build of better-sqlite3; run `node scripts/build-electron-native.mjs --ensure`'
    : null;
if (skipReason) console.warn(`\n[electron e2e] SKIPPED: ${skipReason}\n`);

test.describe('desktop app (Electron)', () => {
  test.skip(skipReason !== null, skipReason ?? '');

  let app: ElectronApplication;
  let page: Page;
  let dataDir: string;

  test.beforeEach(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-electron-'));
    app = await electron.launch({
      executablePath: binary as string,
      args: [root],
      env: { ...process.env, MAESTRO_DATA_DIR: dataDir },
    });
    page = await app.firstWindow();
  });

  test.afterEach(async () => {
    await app?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('the window is locked down, served from app://maestro/, and exposes exactly the contract', async () => {
    await expect(page).toHaveTitle(/MAESTRO/);
    // The app's own origin, not file://: the page and its assets come from the app:// protocol handler.
    expect(page.url()).toBe('app://maestro/');
    const served = await page.evaluate(async () => ({
      origin: window.location.origin,
      // Above the renderer folder is the app's package.json: never served.
      escape: (await fetch('app://maestro/..%2f..%2fpackage.json')).status,
    }));
    expect(served).toEqual({ origin: 'app://maestro', escape: 404 });
    const exposed = await page.evaluate(() => ({
      keys: Object.keys((window as unknown as { maestro: object }).maestro).sort(),
      hasRequire: typeof (window as unknown as { require?: unknown }).require,
      hasProcess: typeof (window as unknown as { process?: unknown }).process,
    }));
    // The contract's operations, the event subscription and the desktop-only calls; nothing else.
    expect(exposed.keys).toEqual(
      [
        ...OPERATION_NAMES,
        'onCoreStatus',
        'onEvent',
        'onOpenTask',
        'openDataFolder',
        'pickFolder',
        'setViewingTask',
      ].sort(),
    );
    expect(exposed.hasRequire).toBe('undefined');
    expect(exposed.hasProcess).toBe('undefined');
  });

  test('P7.23 a task created over IPC is stored in the data dir and invalid input is refused by the core', async () => {
    const result = await page.evaluate(async () => {
      const api = (window as unknown as { maestro: Record<string, (i: unknown) => Promise<unknown>> }).maestro;
      const created = (await api.createTask?.({ instruction: 'from the desktop' })) as { ok: boolean };
      const bad = (await api.createTask?.({ instruction: 42 })) as { ok: boolean; error: { code: string } };
      const list = (await api.listTasks?.({})) as { ok: boolean; value: { tasks: { instruction: string }[] } };
      return { created: created.ok, bad: bad.error.code, instructions: list.value.tasks.map((t) => t.instruction) };
    });
    expect(result).toEqual({ created: true, bad: 'invalid_input', instructions: ['from the desktop'] });
    expect(fs.existsSync(path.join(dataDir, 'maestro.db'))).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'bridge.json'))).toBe(true);
  });
});

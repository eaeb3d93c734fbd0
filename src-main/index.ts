// Electron entry: single instance, the locked-down window, the tray and notifications, and IPC forwarded to the core,
// which runs in its own utility process (core-process.ts: DB, Worker, engine, MCP, the HTTP bridge), so a busy core
// never stalls the window.
import path from 'node:path';
import { app, BrowserWindow, dialog, session } from 'electron';
import { prepareDataDir } from './app/data-dir';
import { SECRET_KEY_FILE } from './llm/profile-store';
import { fileSecretBox, keyedSecretBox } from './llm/secret-box';
import { HostChooser } from './remote/host-chooser';
import { registerAppScheme, serveAppProtocol } from './shell/app-protocol';
import { showAttention } from './shell/attention';
import { startCoreProcess } from './shell/core-process';
import { registerHostsIpc } from './shell/hosts-ipc';
import { registerIpc } from './shell/ipc';
import { electronSqliteBinding } from './shell/native';
import { lockDownPermissions } from './shell/permissions';
import { keychainDataKey, resealKeychainValues } from './shell/secret-box';
import { appOrigins, createMainWindow, lockDownWebContents } from './shell/window';

/** This computer's core, or the host chosen in Settings → Hosts: what the window's IPC forwards to. */
let core: HostChooser['connection'] | undefined;

async function boot(): Promise<void> {
  const appRoot = app.isPackaged ? process.resourcesPath : app.getAppPath();
  // electron-vite builds main, preload and renderer side by side into out/ (package.json "main").
  const outDir = path.join(app.getAppPath(), 'out');
  const rendererDir = path.join(outDir, 'renderer');
  const dataDir = prepareDataDir(process.env.MAESTRO_DATA_DIR ?? path.join(app.getPath('userData'), 'data'));
  const keychainKey = keychainDataKey(dataDir);
  if (keychainKey) resealKeychainValues(dataDir, keychainKey);
  // Built beside this file (electron.vite.config.mts: the main side's `core-process` entry).
  const localCore = await startCoreProcess(path.join(__dirname, 'core-process.js'), {
    dataDir,
    piecesDir: path.join(appRoot, 'pieces'),
    rendererDir,
    version: app.getVersion(),
    nativeBinding: electronSqliteBinding(),
    ...(keychainKey ? { keychainKey: keychainKey.toString('base64') } : {}),
  });
  // The saved host's token is sealed by the same box as the profiles' keys.
  const hosts = new HostChooser(localCore, {
    dataDir,
    box: keychainKey
      ? keyedSecretBox(keychainKey, 'the OS keychain (Electron safeStorage)')
      : fileSecretBox(path.join(dataDir, SECRET_KEY_FILE)),
  });
  const restored = await hosts.restore();
  if (restored) console.warn(`MAESTRO: ${restored}`);
  core = hosts.connection;
  lockDownWebContents();
  lockDownPermissions(session.defaultSession, appOrigins());
  serveAppProtocol(rendererDir);
  const window = createMainWindow(path.join(outDir, 'preload'));
  const ipc = registerIpc(core, window);
  registerHostsIpc(hosts, window);
  showAttention(core, window, ipc.view, path.join(appRoot, 'resources'));
}

registerAppScheme();
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    // The one window comes to the front instead of a second app.
    const [window] = BrowserWindow.getAllWindows();
    if (window) {
      if (window.isMinimized()) window.restore();
      window.focus();
    }
  });
  app.whenReady().then(boot).catch(fail);
  app.on('window-all-closed', () => app.quit());
  let quitting = false;
  app.on('will-quit', (event) => {
    if (quitting || !core) return;
    event.preventDefault();
    quitting = true;
    // The remote host's stream ends; the core closes its bridge, persists its running jobs and removes bridge.json
    // before it exits.
    void core.close().then(() => app.quit());
  });
}

function fail(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  console.error('MAESTRO could not start:', message);
  dialog.showErrorBox('MAESTRO could not start', message);
  app.exit(1);
}

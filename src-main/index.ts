// Electron entry: single instance, the locked-down window, IPC, and the local HTTP bridge over the shared core.
import path from 'node:path';
import { app, BrowserWindow, dialog, session } from 'electron';
import { removeBridgeFile, writeBridgeFile } from './app/bridge-file';
import { createMaestro, type Maestro } from './app/create-maestro';
import { startBridgeAtKeptAddress } from './bridge/kept-address';
import type { Bridge } from './bridge/server';
import { registerAppScheme, serveAppProtocol } from './shell/app-protocol';
import { showAttention } from './shell/attention';
import { registerIpc } from './shell/ipc';
import { electronSqliteBinding } from './shell/native';
import { lockDownPermissions } from './shell/permissions';
import { safeStorageSecretBox } from './shell/secret-box';
import { appOrigins, createMainWindow, lockDownWebContents } from './shell/window';

let maestro: Maestro | undefined;
let bridge: Bridge | undefined;

async function boot(): Promise<void> {
  const appRoot = app.isPackaged ? process.resourcesPath : app.getAppPath();
  // electron-vite builds main, preload and renderer side by side into out/ (package.json "main").
  const outDir = path.join(app.getAppPath(), 'out');
  const rendererDir = path.join(outDir, 'renderer');
  maestro = createMaestro({
    dataDir: process.env.MAESTRO_DATA_DIR ?? path.join(app.getPath('userData'), 'data'),
    piecesDir: path.join(appRoot, 'pieces'),
    version: app.getVersion(),
    nativeBinding: electronSqliteBinding(),
    secretBox: safeStorageSecretBox() ?? undefined,
  });
  lockDownWebContents();
  lockDownPermissions(session.defaultSession, appOrigins());
  serveAppProtocol(rendererDir);
  const window = createMainWindow(path.join(outDir, 'preload'));
  const ipc = registerIpc(maestro, window);
  showAttention(maestro, window, ipc.view, path.join(appRoot, 'resources'));
  const started = await startBridgeAtKeptAddress({ maestro, staticDir: rendererDir });
  bridge = started.bridge;
  if (started.note) console.log(`MAESTRO: ${started.note}`);
  maestro.start();
  writeBridgeFile(maestro.ctx.dataDir, { url: bridge.url, token: started.token, pid: process.pid });
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
    if (quitting || !maestro) return;
    event.preventDefault();
    quitting = true;
    const m = maestro;
    void (async () => {
      await bridge?.close();
      await m.close();
      removeBridgeFile(m.ctx.dataDir);
      app.quit();
    })();
  });
}

function fail(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  console.error('MAESTRO could not start:', message);
  dialog.showErrorBox('MAESTRO could not start', message);
  app.exit(1);
}

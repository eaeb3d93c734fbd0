// Electron entry: single instance, the locked-down window, IPC, and the local HTTP bridge over the shared core.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { app, BrowserWindow, dialog } from 'electron';
import { removeBridgeFile, writeBridgeFile } from './app/bridge-file';
import { createMaestro, type Maestro } from './app/create-maestro';
import { type Bridge, startBridge } from './bridge/server';
import { showAttention } from './shell/attention';
import { registerIpc } from './shell/ipc';
import { electronSqliteBinding } from './shell/native';
import { safeStorageSecretBox } from './shell/secret-box';
import { createMainWindow, lockDownWebContents } from './shell/window';

let maestro: Maestro | undefined;
let bridge: Bridge | undefined;

async function boot(): Promise<void> {
  const appRoot = app.isPackaged ? process.resourcesPath : app.getAppPath();
  maestro = createMaestro({
    dataDir: process.env.MAESTRO_DATA_DIR ?? path.join(app.getPath('userData'), 'data'),
    piecesDir: path.join(appRoot, 'pieces'),
    version: app.getVersion(),
    nativeBinding: electronSqliteBinding(),
    secretBox: safeStorageSecretBox() ?? undefined,
  });
  lockDownWebContents();
  const window = createMainWindow(path.join(__dirname, '../preload'), path.join(__dirname, '../renderer'));
  const ipc = registerIpc(maestro, window);
  const token = randomBytes(32).toString('base64url');
  showAttention(maestro, window, ipc.view, path.join(appRoot, 'resources'));
  bridge = await startBridge({ maestro, token, staticDir: path.join(__dirname, '../renderer') });
  writeBridgeFile(maestro.ctx.dataDir, { url: bridge.url, token, pid: process.pid });
  maestro.start();
}

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

// The main window, locked down: context isolation, sandbox, no Node, no navigation, no new windows.
import path from 'node:path';
import { app, BrowserWindow, shell } from 'electron';

export function createMainWindow(preloadDir: string, rendererDir: string): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'MAESTRO',
    webPreferences: {
      preload: path.join(preloadDir, 'index.js'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  window.once('ready-to-show', () => window.show());

  const devUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
  if (devUrl) void window.loadURL(devUrl);
  else void window.loadFile(path.join(rendererDir, 'index.html'));
  return window;
}

/** Every web contents of the app: no navigation away from the app, no new windows; http(s) links go to the browser. */
export function lockDownWebContents(): void {
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event, url) => {
      if (url !== contents.getURL()) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      if (/^https?:\/\//.test(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
  });
}

// The main window, locked down: context isolation, sandbox, no Node, no navigation, no new windows. Its page comes
// from app://maestro/ (app-protocol.ts), or from electron-vite's dev server in development.
import path from 'node:path';
import { app, BrowserWindow, shell } from 'electron';
import { APP_ORIGIN, APP_URL } from './app-protocol';

/** The dev server's URL under `electron-vite dev`; never in a packaged app. */
export function devServerUrl(): string | undefined {
  return !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
}

/** The origins the window's own pages load from. */
export function appOrigins(): string[] {
  const dev = devServerUrl();
  if (!dev) return [APP_ORIGIN];
  const { protocol, host } = new URL(dev);
  return [APP_ORIGIN, `${protocol}//${host}`];
}

export function createMainWindow(preloadDir: string): BrowserWindow {
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

  void window.loadURL(devServerUrl() ?? APP_URL);
  return window;
}

/**
 * Every web contents of the app: no navigation away from the app, no new windows; http(s) and mailto links go to the
 * OS (the browser, the mail app). The renderer opens a link the model wrote only after the person confirmed it
 * (src-renderer/src/link-guard.ts); a navigation that skips it is still refused by `will-navigate`.
 */
export function lockDownWebContents(): void {
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event, url) => {
      if (url !== contents.getURL()) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      if (/^(?:https?:\/\/|mailto:)/i.test(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
  });
}

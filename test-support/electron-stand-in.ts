// A recording stand-in for the `electron` module, so the Electron entry (src-main/index.ts) boots in Node under
// Vitest: every API the shell touches records what it was asked and returns the least object that lets the shell go
// on. It decides nothing; a test reads the records and calls the recorded handlers itself. Tests only.
import { type ChildProcess, fork, type Serializable } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import { constants as osConstants } from 'node:os';
import path from 'node:path';

type Listener = (...args: unknown[]) => unknown;
type Handler = (...args: unknown[]) => unknown;

/** What the test sets before it imports the entry. */
export const standInConfig = { appPath: '', userData: '', keychain: false, keychainId: 'this-machine' };

/** A web contents: records what main sends it and the window-open handler the shell sets. */
export class StandInWebContents extends EventEmitter {
  readonly sent: { channel: string; args: unknown[] }[] = [];
  readonly mainFrame = { name: 'main frame' };
  windowOpenHandler: Handler | undefined;
  url = '';
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  setWindowOpenHandler(handler: Handler): void {
    this.windowOpenHandler = handler;
  }
  getURL(): string {
    return this.url;
  }
}

export class StandInBrowserWindow extends EventEmitter {
  static readonly all: StandInBrowserWindow[] = [];
  static getAllWindows(): StandInBrowserWindow[] {
    return StandInBrowserWindow.all.filter((w) => !w.destroyed);
  }
  static fromWebContents(contents: unknown): StandInBrowserWindow | null {
    return StandInBrowserWindow.all.find((w) => w.webContents === contents) ?? null;
  }
  readonly webContents = new StandInWebContents();
  readonly loaded: string[] = [];
  destroyed = false;
  shown = false;
  constructor(readonly options: Record<string, unknown>) {
    super();
    StandInBrowserWindow.all.push(this);
  }
  loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    this.webContents.url = url;
    return Promise.resolve();
  }
  loadFile(file: string): Promise<void> {
    this.loaded.push(`loadFile:${file}`);
    return Promise.resolve();
  }
  isDestroyed = () => this.destroyed;
  isMinimized = () => false;
  isFocused = () => false;
  isVisible = () => this.shown;
  restore(): void {}
  focus(): void {}
  show(): void {
    this.shown = true;
  }
}

export class StandInTray extends EventEmitter {
  static readonly all: StandInTray[] = [];
  tooltip = '';
  title = '';
  menu: { template: unknown[] } | undefined;
  destroyed = false;
  constructor(readonly image: unknown) {
    super();
    StandInTray.all.push(this);
  }
  setToolTip(text: string): void {
    this.tooltip = text;
  }
  setTitle(text: string): void {
    this.title = text;
  }
  setContextMenu(menu: { template: unknown[] }): void {
    this.menu = menu;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

export class StandInNotification extends EventEmitter {
  static readonly all: StandInNotification[] = [];
  static isSupported = () => true;
  shown = false;
  constructor(readonly options: { title: string; body: string; silent?: boolean; actions?: unknown[] }) {
    super();
    StandInNotification.all.push(this);
  }
  show(): void {
    this.shown = true;
  }
}

class StandInApp extends EventEmitter {
  readonly quits: number[] = [];
  readonly exits: number[] = [];
  readonly badgeCounts: number[] = [];
  isPackaged = false;
  requestSingleInstanceLock = () => true;
  whenReady = () => Promise.resolve();
  quit = () => {
    this.quits.push(Date.now());
  };
  exit = (code = 0) => {
    this.exits.push(code);
  };
  getAppPath = () => standInConfig.appPath;
  getPath = (name: string) => `${standInConfig.userData}/${name}`;
  getVersion = () => '0.0.0-stand-in';
  setBadgeCount = (count: number) => {
    this.badgeCounts.push(count);
    return true;
  };
}

export const records = {
  ipcHandlers: [] as { channel: string; handler: Handler }[],
  ipcListeners: [] as { channel: string; listener: Listener }[],
  privilegedSchemes: [] as unknown[],
  protocolHandlers: [] as { scheme: string; handler: (request: Request) => Response | Promise<Response> }[],
  permissionRequestHandlers: [] as Handler[],
  permissionCheckHandlers: [] as Handler[],
  openedExternally: [] as string[],
  errorBoxes: [] as { title: string; content: string }[],
};

export const app = new StandInApp();

export const ipcMain = {
  handle(channel: string, handler: Handler): void {
    records.ipcHandlers.push({ channel, handler });
  },
  removeHandler(channel: string): void {
    records.ipcHandlers = records.ipcHandlers.filter((h) => h.channel !== channel);
  },
  on(channel: string, listener: Listener): void {
    records.ipcListeners.push({ channel, listener });
  },
  removeListener(channel: string, listener: Listener): void {
    records.ipcListeners = records.ipcListeners.filter((l) => l.channel !== channel || l.listener !== listener);
  },
};

export const protocol = {
  registerSchemesAsPrivileged(schemes: unknown[]): void {
    records.privilegedSchemes.push(...schemes);
  },
  handle(scheme: string, handler: (request: Request) => Response | Promise<Response>): void {
    records.protocolHandlers.push({ scheme, handler });
  },
};

export const session = {
  defaultSession: {
    setPermissionRequestHandler(handler: Handler): void {
      records.permissionRequestHandlers.push(handler);
    },
    setPermissionCheckHandler(handler: Handler): void {
      records.permissionCheckHandlers.push(handler);
    },
  },
};

export const dialog = {
  showErrorBox(title: string, content: string): void {
    records.errorBoxes.push({ title, content });
  },
  showOpenDialog: () => Promise.resolve({ canceled: true, filePaths: [] }),
};

export const shell = {
  openExternal(url: string): Promise<void> {
    records.openedExternally.push(url);
    return Promise.resolve();
  },
  openPath: () => Promise.resolve(''),
};

export const Menu = { buildFromTemplate: (template: unknown[]) => ({ template }) };
export const nativeImage = { createFromPath: (file: string) => ({ file }) };
/**
 * No keychain by default: the data dir's secret.key is used, as on a Linux desktop without one. With
 * `standInConfig.keychain`, a keychain whose "encryption" is reversible but keyed by `keychainId` (another id is
 * another machine's keychain: it does not open what this one sealed).
 */
export const safeStorage = {
  isEncryptionAvailable: () => standInConfig.keychain,
  getSelectedStorageBackend: () => 'gnome_libsecret',
  encryptString: (plain: string) => Buffer.from(`${standInConfig.keychainId}:${Buffer.from(plain).toString('hex')}`),
  decryptString(sealed: Buffer): string {
    const [id, hex] = sealed.toString().split(':');
    if (id !== standInConfig.keychainId || hex === undefined) throw new Error('Error while decrypting the ciphertext');
    return Buffer.from(hex, 'hex').toString();
  },
};

export const BrowserWindow = StandInBrowserWindow;
export const Tray = StandInTray;
export const Notification = StandInNotification;

/**
 * Electron's utility process, as a Node child: `fork` runs the entry (its TypeScript source when the built .js is
 * absent, as under Vitest) through utility-process-child.ts, which gives it a parentPort; messages are structured
 * clones both ways, as over Electron's port. Every child is kept in `all`, so a test can kill one as a crash would.
 */
export class StandInUtilityProcess extends EventEmitter {
  static readonly all: StandInUtilityProcess[] = [];
  readonly child: ChildProcess;
  pid: number | undefined;
  constructor(modulePath: string, args: string[], options: { env?: NodeJS.ProcessEnv } = {}) {
    super();
    const source = modulePath.replace(/\.js$/, '.ts');
    const entry = !fs.existsSync(modulePath) && fs.existsSync(source) ? source : modulePath;
    this.child = fork(path.join(import.meta.dirname, 'utility-process-child.ts'), [entry, ...args], {
      execArgv: ['--import', 'tsx'],
      serialization: 'advanced',
      env: options.env ?? process.env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.pid = this.child.pid;
    this.child.on('spawn', () => this.emit('spawn'));
    this.child.on('message', (message) => this.emit('message', message));
    this.child.on('exit', (code, signal) => {
      this.pid = undefined;
      // Electron reports a killed child with a code too.
      this.emit('exit', code ?? (signal ? 128 + (osConstants.signals[signal] ?? 0) : 0));
    });
    StandInUtilityProcess.all.push(this);
  }
  postMessage(message: unknown): void {
    if (this.child.connected) this.child.send(message as Serializable);
  }
  kill(): boolean {
    return this.child.kill('SIGTERM');
  }
}

export const utilityProcess = {
  fork: (modulePath: string, args: string[] = [], options: { env?: NodeJS.ProcessEnv } = {}) =>
    new StandInUtilityProcess(modulePath, args, options),
};

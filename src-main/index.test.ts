// The Electron shell, booted in Node: src-main/index.ts runs against a recording stand-in for `electron` (the real
// core, DB, Worker, bridge and a scripted model behind it), and the test reads what the shell asked of Electron — the
// window's web preferences, the permission handlers, the app:// protocol, one IPC handler per contract operation,
// the tray and the notifications — then calls the recorded handlers as Electron would.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IPC_EVENT_CHANNEL, ipcChannel, OPERATION_NAMES } from '../src-shared/contract';
import {
  CHOOSE_HOST_CHANNEL,
  CORE_STATUS_CHANNEL,
  CURRENT_HOST_CHANNEL,
  EVENTS_JOINED_CHANNEL,
  OPEN_DATA_FOLDER_CHANNEL,
  OPEN_TASK_CHANNEL,
  PICK_FOLDER_CHANNEL,
  VIEWING_TASK_CHANNEL,
} from '../src-shared/preload-api';
import {
  app,
  records,
  StandInBrowserWindow,
  StandInNotification,
  StandInTray,
  StandInUtilityProcess,
  StandInWebContents,
  standInConfig,
} from '../test-support/electron-stand-in';
import { complete } from '../test-support/engine-harness';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../test-support/scripted-llm-server';

vi.mock('electron', () => import('../test-support/electron-stand-in'));

const REPO = path.resolve(__dirname, '..');
const API_KEY = 'sk-shell-test';
const INDEX_HTML = '<!doctype html><title>MAESTRO</title><script type="module" src="./assets/app.js"></script>';
const ENV_KEYS = ['MAESTRO_DATA_DIR', 'MAESTRO_LLM_BASE_URL', 'MAESTRO_LLM_API_KEY', 'MAESTRO_LLM_MODEL'] as const;

let root: string;
let dataDir: string;
let llm: ScriptedLlmServer;
const savedEnv: Partial<Record<(typeof ENV_KEYS)[number], string>> = {};

/** An app folder as electron-vite leaves it: out/renderer, pieces, resources, and native/electron-<version>/ (here
 * the Node build of better-sqlite3, since this "Electron" is Node). */
function makeAppFolder(appPath: string, electronVersion: string): void {
  fs.mkdirSync(path.join(appPath, 'out', 'renderer', 'assets'), { recursive: true });
  fs.writeFileSync(path.join(appPath, 'out', 'renderer', 'index.html'), INDEX_HTML);
  fs.writeFileSync(path.join(appPath, 'out', 'renderer', 'assets', 'app.js'), 'console.log("app")\n');
  fs.symlinkSync(path.join(REPO, 'pieces'), path.join(appPath, 'pieces'));
  fs.symlinkSync(path.join(REPO, 'resources'), path.join(appPath, 'resources'));
  const nativeDir = path.join(appPath, 'native', `electron-${electronVersion}`);
  fs.mkdirSync(nativeDir, { recursive: true });
  const nodeAddon = createRequire(__filename).resolve('better-sqlite3/build/Release/better_sqlite3.node');
  fs.symlinkSync(nodeAddon, path.join(nativeDir, 'better_sqlite3.node'));
}

const theWindow = () => {
  const [window] = StandInBrowserWindow.all;
  if (!window) throw new Error('the shell opened no window');
  return window;
};

/** Calls an operation through its recorded IPC handler, as the window's preload would. */
async function callIpc(channel: string, input: unknown): Promise<{ ok: boolean; value?: unknown; error?: unknown }> {
  const found = records.ipcHandlers.find((h) => h.channel === channel);
  if (!found) throw new Error(`no IPC handler for ${channel}`);
  const window = theWindow();
  const event = { sender: window.webContents, senderFrame: window.webContents.mainFrame };
  return (await found.handler(event, input)) as { ok: boolean; value?: unknown; error?: unknown };
}

const appRequest = (url: string) => {
  const [registered] = records.protocolHandlers;
  if (!registered) throw new Error('no protocol handler');
  return registered.handler(new Request(url));
};

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-shell-'));
  dataDir = path.join(root, 'data');
  const electronVersion = '44.11.5-stand-in';
  makeAppFolder(path.join(root, 'app'), electronVersion);
  Object.assign(standInConfig, { appPath: path.join(root, 'app'), userData: path.join(root, 'user') });
  Object.defineProperty(process.versions, 'electron', { value: electronVersion, configurable: true });
  llm = await startScriptedLlmServer({ apiKey: API_KEY });
  for (const key of ENV_KEYS) savedEnv[key] = process.env[key];
  Object.assign(process.env, {
    MAESTRO_DATA_DIR: dataDir,
    MAESTRO_LLM_BASE_URL: llm.baseURL,
    MAESTRO_LLM_API_KEY: API_KEY,
    MAESTRO_LLM_MODEL: 'scripted',
  });
  await import('./index');
  // The core (in its own process) writes bridge.json once it serves; main then opens the window.
  await vi.waitFor(
    () => {
      expect(fs.existsSync(path.join(dataDir, 'bridge.json'))).toBe(true);
      expect(records.ipcHandlers.length).toBeGreaterThan(0);
    },
    { timeout: 45_000, interval: 100 },
  );
}, 60_000);

afterAll(async () => {
  // Quit as Electron would: will-quit, which the shell defers until the bridge and the core are closed.
  let prevented = false;
  for (const listener of app.listeners('will-quit')) listener({ preventDefault: () => (prevented = true) });
  await vi.waitFor(() => expect(app.quits.length).toBeGreaterThan(0), { timeout: 20_000 });
  expect(prevented).toBe(true);
  expect(fs.existsSync(path.join(dataDir, 'bridge.json'))).toBe(false);
  await llm?.close();
  for (const key of ENV_KEYS) {
    if (savedEnv[key] === undefined) delete process.env[key];
    else process.env[key] = savedEnv[key];
  }
  delete (process.versions as Record<string, string | undefined>).electron;
  fs.rmSync(root, { recursive: true, force: true });
}, 30_000);

describe('the Electron shell, booted in Node', () => {
  it('started without an error box or an exit', () => {
    expect(records.errorBoxes).toEqual([]);
    expect(app.exits).toEqual([]);
    expect(app.quits).toEqual([]);
  });

  it('opens one window: isolated, sandboxed, no Node, web security on, the built preload, from app://maestro/', () => {
    expect(StandInBrowserWindow.all).toHaveLength(1);
    const window = theWindow();
    expect(window.options.webPreferences).toEqual({
      preload: path.join(root, 'app', 'out', 'preload', 'index.js'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    });
    expect(window.loaded).toEqual(['app://maestro/']);
  });

  it('registers app: as a standard, secure scheme and serves the renderer folder from it', async () => {
    expect(records.privilegedSchemes).toEqual([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
    ]);
    expect(records.protocolHandlers.map((h) => h.scheme)).toEqual(['app']);
    const index = await appRequest('app://maestro/');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await index.text()).toBe(INDEX_HTML);
    const script = await appRequest('app://maestro/assets/app.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it('refuses app:// requests that leave the renderer folder or name another host', async () => {
    fs.writeFileSync(path.join(root, 'app', 'out', 'secret.txt'), 'not for the page');
    for (const url of [
      'app://maestro/../../etc/passwd',
      'app://maestro/..%2f..%2f..%2fetc%2fpasswd',
      'app://maestro/%2e%2e/secret.txt',
      'app://maestro/..%2fsecret.txt',
      'app://other/index.html',
      'app://maestro/missing.js',
    ]) {
      const answer = await appRequest(url);
      expect(answer.status, url).toBe(404);
      const body = await answer.text();
      expect(body, url).not.toContain('root:');
      expect(body, url).not.toContain('not for the page');
    }
  });

  it('grants the clipboard write the UI uses, to the app origin only, and denies every other permission', () => {
    expect(records.permissionRequestHandlers).toHaveLength(1);
    expect(records.permissionCheckHandlers).toHaveLength(1);
    const [request] = records.permissionRequestHandlers;
    const [check] = records.permissionCheckHandlers;
    const asked = (permission: string, url: string) => {
      const answers: boolean[] = [];
      request?.(theWindow().webContents, permission, (granted: boolean) => answers.push(granted), {
        requestingUrl: url,
        isMainFrame: true,
      });
      return answers;
    };
    expect(asked('clipboard-sanitized-write', 'app://maestro/')).toEqual([true]);
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'midi']) {
      expect(asked(permission, 'app://maestro/'), permission).toEqual([false]);
    }
    expect(asked('clipboard-sanitized-write', 'https://example.com/')).toEqual([false]);
    expect(asked('clipboard-sanitized-write', 'file:///etc/passwd')).toEqual([false]);
    expect(check?.(theWindow().webContents, 'clipboard-sanitized-write', 'app://maestro', {})).toBe(true);
    expect(check?.(theWindow().webContents, 'media', 'app://maestro', {})).toBe(false);
    expect(check?.(theWindow().webContents, 'geolocation', 'app://maestro', {})).toBe(false);
    expect(check?.(null, 'clipboard-sanitized-write', 'https://example.com', {})).toBe(false);
  });

  it('keeps every web contents on its page: no navigation away, no webviews, new windows denied', () => {
    const [created] = app.listeners('web-contents-created');
    const contents = new StandInWebContents();
    contents.url = 'app://maestro/';
    created?.({}, contents);
    const navigate = (url: string) => {
      let prevented = false;
      contents.emit('will-navigate', { preventDefault: () => (prevented = true) }, url);
      return prevented;
    };
    expect(navigate('https://evil.example/')).toBe(true);
    expect(navigate('file:///etc/passwd')).toBe(true);
    expect(navigate('app://maestro/')).toBe(false);
    let webview = false;
    contents.emit('will-attach-webview', { preventDefault: () => (webview = true) });
    expect(webview).toBe(true);
    expect(contents.windowOpenHandler?.({ url: 'https://docs.example/' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler?.({ url: 'app://maestro/' })).toEqual({ action: 'deny' });
    expect(records.openedExternally).toEqual(['https://docs.example/']);
  });

  it('registers exactly one IPC handler per contract operation, the desktop-only calls, and nothing else', () => {
    const channels = records.ipcHandlers.map((h) => h.channel);
    expect(new Set(channels).size).toBe(channels.length);
    expect([...channels].sort()).toEqual(
      [
        ...OPERATION_NAMES.map(ipcChannel),
        PICK_FOLDER_CHANNEL,
        OPEN_DATA_FOLDER_CHANNEL,
        CURRENT_HOST_CHANNEL,
        CHOOSE_HOST_CHANNEL,
      ].sort(),
    );
    expect(records.ipcListeners.map((l) => l.channel)).toEqual([VIEWING_TASK_CHANNEL, EVENTS_JOINED_CHANNEL]);
  });

  it('refuses IPC from a sender that is not its window, before the core sees the input', async () => {
    const found = records.ipcHandlers.find((h) => h.channel === ipcChannel('createTask'));
    const stranger = new StandInWebContents();
    const answer = await found?.handler({ sender: stranger, senderFrame: stranger.mainFrame }, { instruction: 'x' });
    expect(answer).toEqual({ ok: false, error: { code: 'forbidden', message: 'IPC from an unknown sender' } });
  });

  it('Settings → Hosts over IPC: shows this computer; a host that is not valid is refused by zod in main, naming the fields, and nothing is saved; a stranger is refused', async () => {
    const handler = (channel: string) => {
      const found = records.ipcHandlers.find((h) => h.channel === channel);
      if (!found) throw new Error(`no handler for ${channel}`);
      return found.handler;
    };
    const ours = { sender: theWindow().webContents, senderFrame: theWindow().webContents.mainFrame };
    expect(await handler(CURRENT_HOST_CHANNEL)(ours)).toEqual({
      ok: true,
      value: { kind: 'local', name: os.hostname(), address: '' },
    });
    const refused = (await handler(CHOOSE_HOST_CHANNEL)(ours, {
      kind: 'tls',
      url: 'http://buildbox:8443',
      token: '',
    })) as { ok: false; error: { code: string; issues: { path: string[] }[] } };
    expect(refused.ok).toBe(false);
    expect(refused.error.code).toBe('invalid_input');
    expect(refused.error.issues.map((i) => i.path[0]).sort()).toEqual(['token', 'url']);
    expect(fs.existsSync(path.join(dataDir, 'hosts.json'))).toBe(false);
    const stranger = new StandInWebContents();
    expect(
      await handler(CHOOSE_HOST_CHANNEL)({ sender: stranger, senderFrame: stranger.mainFrame }, { kind: 'local' }),
    ).toEqual({ ok: false, error: { code: 'forbidden', message: 'IPC from an unknown sender' } });
    expect(fs.existsSync(path.join(dataDir, 'hosts.json'))).toBe(false);
  });

  it('serves the same renderer over the HTTP bridge', async () => {
    const { url } = JSON.parse(fs.readFileSync(path.join(dataDir, 'bridge.json'), 'utf8')) as { url: string };
    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toBe(INDEX_HTML);
  });

  it('a command waiting for approval shows in the tray and as a notification whose action approves it', async () => {
    const [tray] = StandInTray.all;
    expect(tray?.image).toEqual({
      file: path.join(root, 'app', 'resources', process.platform === 'darwin' ? 'trayTemplate.png' : 'tray.png'),
    });
    expect(tray?.tooltip).toBe('MAESTRO');
    llm.push({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo from-the-shell' } }] }, complete('Ran.'));
    const created = await callIpc(ipcChannel('createTask'), { instruction: 'Print a word.', title: 'Shell test' });
    expect(created.ok).toBe(true);
    const taskId = (created.value as { task: { id: string } }).task.id;

    const waiting = await vi.waitFor(
      () => {
        const n = StandInNotification.all.find((x) => x.options.title.includes('Shell test') && x.shown);
        if (!n) throw new Error('no notification yet');
        return n;
      },
      { timeout: 15_000 },
    );
    expect(waiting.options.body).toContain('echo from-the-shell');
    // The buttons are macOS's; elsewhere a click opens the card.
    expect(waiting.options.actions).toEqual(
      process.platform === 'darwin'
        ? [
            { type: 'button', text: 'Approve once' },
            { type: 'button', text: 'Deny' },
          ]
        : [],
    );
    expect(tray?.tooltip).toBe('MAESTRO — 1 waiting for you');
    const menu = (tray?.menu?.template ?? []) as { label?: string; click?: () => void }[];
    expect(menu.map((item) => item.label)).toEqual([
      expect.stringContaining('Shell test'),
      undefined,
      'Show MAESTRO',
      'Quit',
    ]);
    expect(app.badgeCounts.at(-1)).toBe(1);

    // A click on the notification shows the window with the task open.
    waiting.emit('click');
    expect(theWindow().shown).toBe(true);
    expect(theWindow().webContents.sent).toContainEqual({ channel: OPEN_TASK_CHANNEL, args: [taskId] });

    // "Approve once" (action 0) decides the request in main; the job goes on and the model completes.
    waiting.emit('action', {}, 0);
    const requests = await callIpc(ipcChannel('listToolRequests'), { taskId });
    expect((requests.value as { requests: { status: string }[] }).requests.map((r) => r.status)).toEqual(['approved']);
    await vi.waitFor(
      async () => {
        const task = await callIpc(ipcChannel('getTask'), { taskId });
        expect((task.value as { jobs: { status: string }[] }).jobs.at(-1)?.status).toBe('succeeded');
      },
      { timeout: 15_000 },
    );
    await vi.waitFor(() => expect(tray?.tooltip).toBe('MAESTRO'));
    expect(app.badgeCounts.at(-1)).toBe(0);
    llm.expectEmpty();
  });

  it('P7.17 a window that starts listening mid-turn (a reload) is sent the turn so far, ahead of what follows', async () => {
    llm.push({ fault: 'hang', text: 'Half of a thought' });
    const created = await callIpc(ipcChannel('createTask'), { instruction: 'Think.', title: 'Reload test' });
    const taskId = (created.value as { task: { id: string } }).task.id;
    const contents = theWindow().webContents;
    const events = (from: number) =>
      contents.sent
        .slice(from)
        .filter((s) => s.channel === IPC_EVENT_CHANNEL)
        .map((s) => s.args[0] as { type: string; taskId: string; text?: string })
        .filter((e) => e.taskId === taskId);
    await vi.waitFor(() => expect(events(0).some((e) => e.text?.includes('Half of a thought'))).toBe(true), {
      timeout: 15_000,
    });
    const before = contents.sent.length;
    const joined = records.ipcListeners.find((l) => l.channel === EVENTS_JOINED_CHANNEL);
    joined?.listener({ sender: contents, senderFrame: contents.mainFrame });
    // The core answers from its own process.
    await vi.waitFor(() => expect(events(before).length).toBeGreaterThan(0));
    const resent = events(before);
    expect(resent.map((e) => e.type)).toEqual(['movement.entered', 'TurnStart', 'LlmCallStart', 'stream.delta']);
    expect(resent.at(-1)?.text).toBe('Half of a thought');
    // From a stranger, nothing.
    const stranger = new StandInWebContents();
    const count = contents.sent.length;
    joined?.listener({ sender: stranger, senderFrame: stranger.mainFrame });
    await new Promise((r) => setTimeout(r, 200));
    expect(contents.sent.length).toBe(count);
    await callIpc(ipcChannel('cancelTask'), { taskId });
  });

  it('runs the core in its own process: killed, it is reported in the window, answers core_restarting meanwhile, and comes back', async () => {
    const [core] = StandInUtilityProcess.all;
    expect(core?.pid).toBeDefined();
    expect(core?.pid).not.toBe(process.pid);
    const { pid } = JSON.parse(fs.readFileSync(path.join(dataDir, 'bridge.json'), 'utf8')) as { pid: number };
    expect(pid).toBe(core?.pid);
    const contents = theWindow().webContents;
    const statuses = (from: number) =>
      contents.sent
        .slice(from)
        .filter((s) => s.channel === CORE_STATUS_CHANNEL)
        .map((s) => s.args[0]);
    const before = contents.sent.length;
    core?.child.kill('SIGKILL');
    await vi.waitFor(() => expect(statuses(before)).toEqual([expect.objectContaining({ state: 'restarting' })]));
    expect(await callIpc(ipcChannel('listTasks'), {})).toMatchObject({ ok: false, error: { code: 'core_restarting' } });
    await vi.waitFor(() => expect(statuses(before).at(-1)).toEqual({ state: 'running' }), { timeout: 45_000 });
    const listed = await callIpc(ipcChannel('listTasks'), {});
    expect(listed.ok).toBe(true);
    // What the first core acknowledged is there for the second.
    const titles = (listed.value as { tasks: { title: string }[] }).tasks.map((t) => t.title);
    expect(titles).toEqual(expect.arrayContaining(['Shell test', 'Reload test']));
    expect(StandInUtilityProcess.all.at(-1)?.pid).not.toBe(core?.pid);
  }, 60_000);
});

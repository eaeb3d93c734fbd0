// The desktop side of the notification projection: a tray icon counting the tasks that wait for the person (with a
// menu of them), the dock/taskbar badge, and OS notifications for waits and terminal states that never steal focus.
// What a notification says and when it is left out (the person's Settings included) is decided in
// events/desktop-notices.ts, in the core; main leaves out the one for the task the window shows.
import path from 'node:path';
import { app, type BrowserWindow, Menu, Notification, nativeImage, Tray } from 'electron';
import type { AttentionUpdate, CoreConnection } from '../app/core-connection';
import { type DesktopNotice, hiddenByView } from '../events/desktop-notices';
import type { WindowView } from './ipc';

export function showAttention(
  core: CoreConnection,
  window: BrowserWindow,
  windowView: WindowView,
  resourcesDir: string,
): () => void {
  const icon = nativeImage.createFromPath(
    path.join(resourcesDir, process.platform === 'darwin' ? 'trayTemplate.png' : 'tray.png'),
  );
  const tray = new Tray(icon);
  const reveal = () => {
    if (window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.show();
  };
  /** Shows the window with the task (and its card) open: a click on a notification or a tray entry. */
  const open = (taskId: string) => {
    reveal();
    windowView.openTask(taskId);
  };

  const refresh = (items: AttentionUpdate['items']) => {
    tray.setToolTip(items.length > 0 ? `MAESTRO — ${items.length} waiting for you` : 'MAESTRO');
    if (process.platform === 'darwin') tray.setTitle(items.length > 0 ? String(items.length) : '');
    app.setBadgeCount(items.length);
    tray.setContextMenu(
      Menu.buildFromTemplate([
        ...items.map((item) => ({
          label: `${item.title}: ${item.detail}`.slice(0, 80),
          click: () => open(item.taskId),
        })),
        ...(items.length > 0 ? [{ type: 'separator' as const }] : []),
        { label: 'Show MAESTRO', click: reveal },
        { label: 'Quit', click: () => app.quit() },
      ]),
    );
  };

  const notify = (shown: DesktopNotice) => {
    if (!Notification.isSupported()) return;
    // Approve / Deny buttons: macOS shows them on the notification; elsewhere a click opens the card.
    const actions = shown.decide && process.platform === 'darwin' ? ['Approve once', 'Deny'] : [];
    const n = new Notification({
      title: shown.title,
      body: shown.body,
      silent: shown.silent,
      actions: actions.map((text) => ({ type: 'button' as const, text })),
    });
    n.on('click', () => open(shown.taskId));
    n.on('action', (_event, index) => {
      if (!shown.decide) return;
      void core
        .call('decideToolRequest', {
          taskId: shown.taskId,
          requestId: shown.decide.requestId,
          decision: index === 0 ? 'approve' : 'deny',
        })
        .then((result) => {
          if (result.ok) return;
          // Decided meanwhile in the window (409), gone, or the core is restarting: the window shows the state.
          console.warn(`deciding from the notification failed: ${result.error.message}`);
          open(shown.taskId);
        });
    });
    n.show();
  };

  tray.on('click', reveal);
  const off = core.onAttention(({ items, notice }) => {
    refresh(items);
    if (notice && !hiddenByView(windowView.view(), notice.taskId)) notify(notice);
  });
  return () => {
    off();
    tray.destroy();
  };
}

// The desktop side of the notification projection: a tray icon counting the tasks that wait for the person (with a
// menu of them), the dock/taskbar badge, and OS notifications for waits and terminal states that never steal focus.
import path from 'node:path';
import { app, type BrowserWindow, Menu, Notification, nativeImage, Tray } from 'electron';
import type { AttentionProjection, Notice } from '../events/attention';

export function showAttention(
  projection: AttentionProjection,
  window: BrowserWindow,
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

  const refresh = () => {
    const items = projection.list();
    tray.setToolTip(items.length > 0 ? `MAESTRO — ${items.length} waiting for you` : 'MAESTRO');
    if (process.platform === 'darwin') tray.setTitle(items.length > 0 ? String(items.length) : '');
    app.setBadgeCount(items.length);
    tray.setContextMenu(
      Menu.buildFromTemplate([
        ...items.map((item) => ({ label: `${item.title}: ${item.detail}`.slice(0, 80), click: reveal })),
        ...(items.length > 0 ? [{ type: 'separator' as const }] : []),
        { label: 'Show MAESTRO', click: reveal },
        { label: 'Quit', click: () => app.quit() },
      ]),
    );
  };

  const notify = (notice: Notice) => {
    // The person is looking at the app: the window shows it; no OS notification, no focus stealing.
    if (!Notification.isSupported() || (window.isFocused() && window.isVisible())) return;
    const n = new Notification({ title: notice.title, body: notice.body, silent: notice.kind === 'succeeded' });
    n.on('click', reveal);
    n.show();
  };

  tray.on('click', reveal);
  refresh();
  const off = projection.onChange((notice) => {
    refresh();
    if (notice) notify(notice);
  });
  return () => {
    off();
    tray.destroy();
  };
}

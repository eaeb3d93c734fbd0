// The renderer's side of the desktop shell: the task on screen is reported as the selection changes (the OS
// notification for it is left out in main), and a notification or tray click opens its task.
import { describe, expect, it } from 'vitest';
import type { Task } from '../../src-shared/entities';
import type { MaestroApi, MaestroClient, ShellLink } from './api/client';
import { linkShell } from './shell-link';
import { createAppStore } from './store/store';

const task = (id: string): Task => ({
  id,
  title: id,
  instruction: 'x',
  pieceId: 'default',
  workspacePath: '/w',
  profile: null,
  parentTaskId: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  archivedAt: null,
  status: 'waiting_human',
});

function setup() {
  const api: Partial<MaestroApi> = {
    getTask: async ({ taskId }) => ({ task: task(taskId), jobs: [], comments: [] }),
    listToolRequests: async () => ({ requests: [] }),
    listPackageRequests: async () => ({ requests: [] }),
  };
  const client: MaestroClient = { transport: 'ipc', api: api as MaestroApi, subscribe: () => () => {} };
  const store = createAppStore(client);
  const viewing: (string | null)[] = [];
  let open: (taskId: string) => void = () => {};
  const shell: ShellLink = {
    setViewingTask: (taskId) => viewing.push(taskId),
    onOpenTask: (listener) => {
      open = listener;
      return () => {
        open = () => {};
      };
    },
    onCoreStatus: () => () => {},
  };
  return { store, shell, viewing, open: (taskId: string) => open(taskId) };
}

describe('linkShell', () => {
  it('reports the task on screen as the selection changes, and opens the task a notification names', async () => {
    const { store, shell, viewing, open } = setup();
    const unlink = linkShell(shell, store);
    expect(viewing).toEqual([null]);
    await store.getState().selectTask('task_a');
    open('task_b');
    await Promise.resolve();
    expect(store.getState().selectedTaskId).toBe('task_b');
    expect(viewing).toEqual([null, 'task_a', 'task_b']);

    unlink();
    open('task_c');
    await store.getState().selectTask('task_a');
    expect(viewing).toEqual([null, 'task_a', 'task_b']);
  });

  it('does nothing without a shell (the HTTP transport)', () => {
    const { store } = setup();
    expect(() => linkShell(undefined, store)()).not.toThrow();
  });
});

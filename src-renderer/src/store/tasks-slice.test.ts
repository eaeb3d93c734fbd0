// The task list's copy of a task and the open task's header stay one: a rename, or the title the host made for a new
// task, arriving as task.changed, shows in both; the "New task" nudge reaches the empty view's composer.
import { describe, expect, it } from 'vitest';
import { createHttpClient } from '../api/client';
import { taskFixture } from '../test-fixtures';
import { selectDetail, selectTasks } from './entity-selectors';
import { createAppStore } from './store';

const offline = () =>
  createAppStore(createHttpClient({ baseUrl: 'http://127.0.0.1:1', token: 't', fetch: async () => Response.json({}) }));

describe('tasks slice', () => {
  it('P7.14 a changed title lands in the list and in the open task, and nowhere else', () => {
    const store = offline();
    const open = taskFixture({ id: 'a', title: 'Walk me through the arc of the retry queue' });
    const other = taskFixture({ id: 'b', title: 'Other' });
    const { fold } = store.getState();
    fold({ kind: 'task', task: open }, { kind: 'task', task: other }, { kind: 'chat.open', taskId: 'a' });
    fold({ kind: 'chat.latest', taskId: 'a', page: { task: open, jobs: [], comments: [], steps: [], olderCount: 0 } });

    fold({ kind: 'task', task: { ...open, title: 'Retry queue backoff' } });
    expect(selectTasks(store.getState()).find((t) => t.id === 'a')?.title).toBe('Retry queue backoff');
    expect(selectDetail(store.getState())?.task?.title).toBe('Retry queue backoff');

    fold({ kind: 'task', task: { ...other, title: 'Renamed other' } });
    expect(selectDetail(store.getState())?.task?.title).toBe('Retry queue backoff');
  });

  it('"New task" asks the page composer for the focus with a counter it can watch', () => {
    const store = offline();
    expect(store.getState().pageComposer).toBe(false);
    store.getState().setPageComposer(true);
    const before = store.getState().composerFocus;
    store.getState().focusComposer();
    expect(store.getState().composerFocus).toBe(before + 1);
  });
});

// The task list's copy of a task and the open task's header stay one: a rename, or the title the host made for a new
// task, arriving as task.changed, shows in both; the "New task" nudge reaches the empty view's composer.
import { describe, expect, it } from 'vitest';
import { createHttpClient } from '../api/client';
import { taskFixture } from '../test-fixtures';
import { createAppStore } from './store';

const offline = () =>
  createAppStore(createHttpClient({ baseUrl: 'http://127.0.0.1:1', token: 't', fetch: async () => Response.json({}) }));

describe('tasks slice', () => {
  it('P7.14 a changed title lands in the list and in the open task, and nowhere else', () => {
    const store = offline();
    const open = taskFixture({ id: 'a', title: 'Walk me through the arc of the retry queue' });
    const other = taskFixture({ id: 'b', title: 'Other' });
    store.getState().upsertTask(open);
    store.getState().upsertTask(other);
    store.setState({
      detail: { ...(store.getState().detail ?? {}), taskId: 'a', task: open } as never,
    });

    store.getState().upsertTask({ ...open, title: 'Retry queue backoff' });
    expect(store.getState().tasks.find((t) => t.id === 'a')?.title).toBe('Retry queue backoff');
    expect(store.getState().detail?.task?.title).toBe('Retry queue backoff');

    store.getState().upsertTask({ ...other, title: 'Renamed other' });
    expect(store.getState().detail?.task?.title).toBe('Retry queue backoff');
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

// The task list a page at a time (issue 28 point 3): the first page and the waiting tasks' page on load, the next page
// on demand with the cursor, a (re)connect that fetches one page again and keeps the older pages, a search's and the
// archive's own page, and a cursor the host refuses starting the list over. Against a fake host that pages as the
// bridge does (newest first, opaque cursors, filters).
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OpInput, OpOutput } from '../../../src-shared/contract';
import type { JobStatus, Task } from '../../../src-shared/entities';
import { ApiError, type MaestroApi, type MaestroClient } from '../api/client';
import { taskFixture } from '../test-fixtures';
import { selectTasks } from './entity-selectors';
import { createAppStore } from './store';
import { TASK_LIST_PAGE } from './tasks-slice';

const at = (i: number) => new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString();
const task = (i: number, status: JobStatus = 'succeeded', archived = false): Task =>
  taskFixture({
    id: `t${i}`,
    title: `Task #${i}.`,
    instruction: `do ${i}`,
    createdAt: at(i),
    status,
    archivedAt: archived ? at(i) : null,
  });

/** A host with `tasks` (any order), paging newest first; its calls are recorded. */
function fakeHost(initial: Task[]) {
  let tasks = [...initial];
  let version = 1;
  const calls: OpInput<'listTasks'>[] = [];
  const listTasks = async (input: OpInput<'listTasks'>): Promise<OpOutput<'listTasks'>> => {
    calls.push(input);
    const limit = Number(input.limit ?? 100);
    const statuses = typeof input.status === 'string' ? input.status.split(',') : input.status;
    const sorted = [...tasks]
      .sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1))
      .filter((t) => !statuses || statuses.includes(t.status ?? ''))
      .filter((t) => input.archived === undefined || (t.archivedAt !== null) === (input.archived === true))
      .filter((t) => !input.q || t.title.includes(input.q));
    let from = 0;
    if (input.cursor) {
      const split = input.cursor.indexOf(':');
      const [v, after] = [input.cursor.slice(0, split), input.cursor.slice(split + 1)];
      if (Number(v) !== version) throw new ApiError('invalid_input', 'cursor: made by another version of the list');
      from = sorted.findIndex((t) => t.createdAt < after);
      if (from === -1) from = sorted.length;
    }
    const page = sorted.slice(from, from + limit);
    const last = page.at(-1);
    const more = from + limit < sorted.length;
    return { tasks: page, nextCursor: more && last ? `${version}:${last.createdAt}` : null };
  };
  const api = { listTasks, getTaskRecent: async () => ({ jobs: [] }) } as unknown as MaestroApi;
  const client: MaestroClient = { transport: 'http', api, subscribe: () => () => {} };
  return {
    client,
    calls,
    set: (next: Task[]) => {
      tasks = next;
    },
    upgrade: () => {
      version++;
    },
  };
}

const ids = (store: ReturnType<typeof createAppStore>) => selectTasks(store.getState()).map((t) => t.id);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => from + k);

describe('the task list by pages', () => {
  it('loads one page of the list and one of the tasks that wait, then the next pages on demand until the last', async () => {
    const host = fakeHost([...range(1, 119).map((i) => task(i)), task(0, 'waiting_human')]);
    const store = createAppStore(host.client);
    await store.getState().loadTasks();

    expect(host.calls).toEqual([
      { limit: TASK_LIST_PAGE },
      { limit: TASK_LIST_PAGE, status: ['waiting_human', 'failed'] },
    ]);
    // The newest page, and the waiting task however old (the notification center needs it).
    expect(ids(store)).toEqual([
      ...range(70, 119)
        .reverse()
        .map((i) => `t${i}`),
      't0',
    ]);
    expect(store.getState().tasksNext).not.toBeNull();

    await store.getState().loadMoreTasks();
    await store.getState().loadMoreTasks();
    expect(host.calls.slice(2).map((c) => c.cursor)).toEqual([expect.any(String), expect.any(String)]);
    expect(ids(store)).toEqual([
      ...range(0, 119)
        .reverse()
        .map((i) => `t${i}`),
    ]);
    expect(store.getState().tasksNext).toBeNull();
    await store.getState().loadMoreTasks();
    expect(host.calls).toHaveLength(4);
  });

  it('a (re)connect fetches one page again: new and deleted tasks of its span show, older pages and the cursor stay', async () => {
    const host = fakeHost(range(1, 200).map((i) => task(i)));
    const store = createAppStore(host.client);
    await store.getState().loadTasks();
    await store.getState().loadMoreTasks();
    const next = store.getState().tasksNext;
    expect(ids(store)).toHaveLength(100);

    // While the stream was down: two tasks made, one of the first page deleted.
    host.set([
      ...range(1, 202)
        .filter((i) => i !== 190)
        .map((i) => task(i)),
    ]);
    host.calls.length = 0;
    await store.getState().loadTasks();
    expect(host.calls).toHaveLength(2);
    expect(host.calls.every((c) => c.cursor === undefined && c.limit === TASK_LIST_PAGE)).toBe(true);
    expect(ids(store)).toEqual([
      ...range(101, 202)
        .filter((i) => i !== 190)
        .reverse()
        .map((i) => `t${i}`),
    ]);
    expect(store.getState().tasksNext).toBe(next);
    await store.getState().loadMoreTasks();
    expect(ids(store).at(-1)).toBe('t51');
  });

  it('a search and the archive load their own first page while pages remain; none when every task is loaded', async () => {
    const host = fakeHost([...range(1, 150).map((i) => task(i, 'succeeded', i % 40 === 0))]);
    const store = createAppStore(host.client);
    await store.getState().loadTasks();
    expect(ids(store)).not.toContain('t7');

    await store.getState().loadTaskPage({ q: '#7.' });
    expect(host.calls.at(-1)).toEqual({ limit: TASK_LIST_PAGE, q: '#7.' });
    expect(ids(store)).toContain('t7');
    await store.getState().loadTaskPage({ archived: true });
    expect(ids(store)).toEqual(expect.arrayContaining(['t40', 't80', 't120']));

    const small = fakeHost([task(1), task(2)]);
    const all = createAppStore(small.client);
    await all.getState().loadTasks();
    await all.getState().loadTaskPage({ q: 'x' });
    expect(small.calls).toHaveLength(2);
  });

  it('a cursor the host refuses (it was upgraded) starts the list again from its first page', async () => {
    const host = fakeHost(range(1, 120).map((i) => task(i)));
    const store = createAppStore(host.client);
    await store.getState().loadTasks();
    host.upgrade();
    await store.getState().loadMoreTasks();
    expect(store.getState().tasksMore).toBe('idle');
    expect(store.getState().tasksLoad).toBe('ready');
    await store.getState().loadMoreTasks();
    expect(ids(store)).toHaveLength(100);
  });
});

describe('the task a window had open, after a reload', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('is opened again when it is older than the first page (asked for on its own), and not when it was deleted', async () => {
    const stored = new Map<string, string>();
    vi.stubGlobal('sessionStorage', {
      getItem: (k: string) => stored.get(k) ?? null,
      setItem: (k: string, v: string) => stored.set(k, v),
      removeItem: (k: string) => stored.delete(k),
    });
    const host = fakeHost(range(1, 120).map((i) => task(i)));
    const asked: string[] = [];
    const api = new Proxy(host.client.api, {
      get: (target, name: string) =>
        name === 'listTasks'
          ? target.listTasks
          : async (input: { taskId?: string }) => {
              asked.push(name);
              if (name === 'getTaskRecent' && input.taskId === 't3') {
                return { task: task(3), jobs: [], comments: [], steps: [], olderCount: 0 };
              }
              if (name === 'getTaskRecent') throw new ApiError('not_found', `task ${input.taskId} does not exist`);
              return {};
            },
    });
    const open = async (remembered: string) => {
      stored.set('maestro.selectedTask', remembered);
      const store = createAppStore({ ...host.client, api });
      await store.getState().loadTasks();
      await store.getState().restoreSelection();
      return store;
    };
    const reopened = await open('t3');
    expect(reopened.getState().selectedTaskId).toBe('t3');
    expect(ids(reopened)).toContain('t3');
    const gone = await open('t999');
    expect(gone.getState().selectedTaskId).toBeNull();
  });
});

// The activity slice: the open task's loaded events and those pushed meanwhile, other tasks' events left out.
import { describe, expect, it } from 'vitest';
import type { MaestroEvent } from '../../../src-shared/events';
import type { MaestroApi, MaestroClient } from '../api/client';
import { selectActivity } from './entity-selectors';
import { createAppStore } from './store';

const tool = (seq: number, taskId = 't1'): MaestroEvent => ({
  seq,
  ts: new Date(Date.UTC(2025, 0, 1, 0, 0, seq)).toISOString(),
  taskId,
  jobId: 'j1',
  type: 'tool.finished',
  callId: `c${seq}`,
  name: 'list_dir',
  ok: true,
  preview: '',
});

function fakeClient(api: Partial<MaestroApi>): MaestroClient {
  return { transport: 'http', api: api as MaestroApi, subscribe: () => () => {} };
}

describe('the activity slice', () => {
  it('merges the loaded events with those pushed while loading, once each', async () => {
    let answer: (value: { events: MaestroEvent[] }) => void = () => {};
    const store = createAppStore(
      fakeClient({
        listTaskEvents: () =>
          new Promise((resolve) => {
            answer = resolve;
          }),
      }),
    );
    const loading = store.getState().loadActivity('t1');
    store.getState().applyEvent(tool(2));
    store.getState().applyEvent(tool(9, 'other'));
    answer({ events: [tool(1), tool(2)] });
    await loading;
    store.getState().applyEvent(tool(3));
    store.getState().applyEvent(tool(3));
    const activity = selectActivity(store.getState());
    expect(activity?.load).toBe('ready');
    expect(activity?.events.map((e) => e.seq)).toEqual([1, 2, 3]);
  });

  it('reports a failed load and keeps what it has', async () => {
    const store = createAppStore(
      fakeClient({
        listTaskEvents: async () => {
          throw new Error('down');
        },
      }),
    );
    await store.getState().loadActivity('t1');
    expect(selectActivity(store.getState())).toMatchObject({ taskId: 't1', load: 'error', error: 'down', events: [] });
  });
});

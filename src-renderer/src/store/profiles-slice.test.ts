// The profiles slice's first-run half: a draft's connection test that never throws, the setup and "Settings at a
// profile" requests, and Retry now answering main's refusal.
import { describe, expect, it } from 'vitest';
import { ApiError, type MaestroApi, type MaestroClient } from '../api/client';
import { createAppStore } from './store';

const fakeClient = (api: Partial<MaestroApi>): MaestroClient => ({
  transport: 'http',
  api: api as MaestroApi,
  subscribe: () => () => {},
});

describe('the profiles slice, first run', () => {
  it("listModels answers main's check, and a transport failure as ok: false with its message", async () => {
    const asked: unknown[] = [];
    let fail = false;
    const store = createAppStore(
      fakeClient({
        listModels: async (draft) => {
          asked.push(draft);
          if (fail) throw new ApiError('network', 'the host went away');
          return { ok: true, models: ['m1', 'm2'] };
        },
      }),
    );
    const draft = { baseURL: 'http://127.0.0.1:11434/v1', kind: 'ollama' as const };
    expect(await store.getState().listModels(draft)).toEqual({ ok: true, models: ['m1', 'm2'] });
    fail = true;
    expect(await store.getState().listModels(draft)).toEqual({ ok: false, models: [], error: 'the host went away' });
    expect(asked).toEqual([draft, draft]);
  });

  it('opens and closes the setup', () => {
    const store = createAppStore(fakeClient({}));
    expect(store.getState()).toMatchObject({ setupOpen: false });
    store.getState().openProfileSetup();
    expect(store.getState()).toMatchObject({ setupOpen: true });
    store.getState().closeProfileSetup();
    expect(store.getState()).toMatchObject({ setupOpen: false });
  });

  it("retryNow: null when main moved the attempt, main's error when it refused", async () => {
    let waiting = true;
    const store = createAppStore(
      fakeClient({
        retryNow: async ({ taskId }) => {
          if (!waiting) throw new ApiError('conflict', `the latest job of task ${taskId} is running`, [], 409);
          return { job: { id: 'job_1', taskId } } as Awaited<ReturnType<MaestroApi['retryNow']>>;
        },
      }),
    );
    expect(await store.getState().retryNow('task_1')).toBeNull();
    waiting = false;
    const refused = await store.getState().retryNow('task_1');
    expect(refused).toMatchObject({ code: 'conflict', message: 'the latest job of task task_1 is running' });
  });
});

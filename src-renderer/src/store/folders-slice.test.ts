// The folder picker is a capability of the IPC client only: the store offers it inside Electron (answering the
// picked folder, null on cancel, an ApiError when main refuses) and not over HTTP; the recent folders come from the
// backend's listRecentFolders.
import { describe, expect, it } from 'vitest';
import type { OperationName } from '../../../src-shared/contract';
import type { Result } from '../../../src-shared/errors';
import type { PickFolderInput, PickFolderOutput, PreloadApi } from '../../../src-shared/preload-api';
import { createHttpClient, createIpcClient } from '../api/client';
import { createAppStore } from './store';

function preloadPicking(answer: Result<PickFolderOutput>) {
  const asked: PickFolderInput[] = [];
  const operation = (name: OperationName) => async () =>
    name === 'listRecentFolders'
      ? {
          ok: true,
          value: {
            folders: [{ path: '/work/a', lastUsedAt: '2026-01-01T00:00:00.000Z' }],
            defaultFolder: '/work/main',
          },
        }
      : { ok: true, value: null };
  const preload = {
    ...Object.fromEntries(['listRecentFolders', 'listTasks'].map((n) => [n, operation(n as OperationName)])),
    onEvent: () => () => {},
    pickFolder: async (input: PickFolderInput) => {
      asked.push(input);
      return answer;
    },
  } as unknown as PreloadApi;
  return { preload, asked };
}

describe('folders slice', () => {
  it('inside Electron: picks a folder starting where asked, and loads the recent folders', async () => {
    const { preload, asked } = preloadPicking({ ok: true, value: { path: '/home/me/project' } });
    const store = createAppStore(createIpcClient(preload));
    expect(store.getState().canPickFolder).toBe(true);
    expect(await store.getState().pickFolder('/home/me')).toEqual({ ok: true, path: '/home/me/project' });
    expect(asked).toEqual([{ defaultPath: '/home/me' }]);
    await store.getState().loadRecentFolders();
    expect(store.getState().recentFolders.map((f) => f.path)).toEqual(['/work/a']);
    expect(store.getState().defaultFolder).toBe('/work/main');
  });

  it('a cancel answers null; a refusal from main is an ApiError with its code', async () => {
    const cancelled = createAppStore(createIpcClient(preloadPicking({ ok: true, value: { path: null } }).preload));
    expect(await cancelled.getState().pickFolder()).toEqual({ ok: true, path: null });
    const refused = createAppStore(
      createIpcClient(
        preloadPicking({ ok: false, error: { code: 'invalid_input', message: '/gone is not an existing folder' } })
          .preload,
      ),
    );
    const outcome = await refused.getState().pickFolder();
    expect(outcome.ok).toBe(false);
    if (!outcome.ok)
      expect([outcome.error.code, outcome.error.message]).toEqual(['invalid_input', '/gone is not an existing folder']);
  });

  it('over HTTP there is no picker: the store says so and picking does nothing', async () => {
    const client = createHttpClient({
      baseUrl: 'http://127.0.0.1:1',
      token: 't',
      fetch: async () => Response.json({}),
    });
    expect(client.pickFolder).toBeUndefined();
    const store = createAppStore(client);
    expect(store.getState().canPickFolder).toBe(false);
    expect(await store.getState().pickFolder('/x')).toEqual({ ok: true, path: null });
  });
});

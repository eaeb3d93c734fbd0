// The renderer client against the contract: every operation exists in both transports, and IPC hands each call's
// whole input to the preload (HTTP requests: client-http.test.ts; the event stream: client-events.test.ts).
import { describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../../../src-shared/contract';
import { createHttpClient, createIpcClient } from './client';
import { CASES } from './client-cases';
import { BASE, call, fakeFetch, fakePreload } from './client-test-kit';

describe('both transports cover the contract', () => {
  const http = createHttpClient({ baseUrl: BASE, token: 't', fetch: fakeFetch().fetch });
  const ipc = createIpcClient(fakePreload(() => ({ ok: true, value: null })).preload);

  it.each(OPERATION_NAMES)('%s has a method in the HTTP and the IPC client', (name) => {
    expect(typeof http.api[name]).toBe('function');
    expect(typeof ipc.api[name]).toBe('function');
  });

  it('offers nothing beyond the contract', () => {
    expect(Object.keys(http.api).sort()).toEqual([...OPERATION_NAMES].sort());
    expect(Object.keys(ipc.api).sort()).toEqual([...OPERATION_NAMES].sort());
  });
});

describe('IPC transport', () => {
  it.each(OPERATION_NAMES)('%s goes to window.maestro.%s with the whole input', async (name) => {
    const { preload, calls } = fakePreload((n) => ({ ok: true, value: { from: n } }));
    const client = createIpcClient(preload);
    await expect(call(client.api, name, CASES[name].input)).resolves.toEqual({ from: name });
    expect(calls).toEqual([[name, CASES[name].input]]);
  });

  it('turns a failed Result into an ApiError', async () => {
    const { preload } = fakePreload(() => ({
      ok: false,
      error: { code: 'approval_pending', message: 'decide the request first' },
    }));
    const client = createIpcClient(preload);
    await expect(client.api.addComment({ taskId: 't', body: 'x' })).rejects.toMatchObject({
      name: 'ApiError',
      code: 'approval_pending',
      message: 'decide the request first',
      issues: [],
    });
  });
});

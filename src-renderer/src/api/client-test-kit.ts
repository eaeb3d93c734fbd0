// For the client's tests only: a recording fetch and a recording preload bridge (test doubles of the two transports).
import { OPERATION_NAMES, type OperationName } from '../../../src-shared/contract';
import type { Result } from '../../../src-shared/errors';
import type { MaestroEvent } from '../../../src-shared/events';
import type { CoreStatus, PreloadApi } from '../../../src-shared/preload-api';
import type { MaestroApi } from './client';

export interface Recorded {
  url: string;
  init: RequestInit;
}

export function fakeFetch(reply: (url: string) => Response = () => Response.json({ fine: true })) {
  const calls: Recorded[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return reply(url);
  };
  return { calls, fetch };
}

export const BASE = 'http://127.0.0.1:4312';
export const call = (api: MaestroApi, name: OperationName, input: unknown) =>
  (api[name] as (input: unknown) => Promise<unknown>)(input);

export function fakePreload(answer: (name: OperationName, input: unknown) => Result<unknown>) {
  const calls: [OperationName, unknown][] = [];
  const listeners: ((event: MaestroEvent) => void)[] = [];
  const statusListeners: ((status: CoreStatus) => void)[] = [];
  const operations = Object.fromEntries(
    OPERATION_NAMES.map((name) => [
      name,
      async (input: unknown) => {
        calls.push([name, input]);
        return answer(name, input);
      },
    ]),
  );
  const preload = {
    ...operations,
    onEvent(listener: (event: MaestroEvent) => void) {
      listeners.push(listener);
      return () => listeners.splice(listeners.indexOf(listener), 1);
    },
    onCoreStatus(listener: (status: CoreStatus) => void) {
      statusListeners.push(listener);
      return () => statusListeners.splice(statusListeners.indexOf(listener), 1);
    },
  } as unknown as PreloadApi;
  return { preload, calls, listeners, statusListeners };
}

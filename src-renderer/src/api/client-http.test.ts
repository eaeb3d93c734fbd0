// The renderer client's HTTP transport: requests carry the method, path and body the bridge expects, and error
// bodies, an unreachable bridge and a missing path parameter become ApiError.
import { describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../../../src-shared/contract';
import { ApiError, buildHttpRequest, createHttpClient } from './client';
import { CASES } from './client-cases';
import { BASE, call, fakeFetch, type Recorded } from './client-test-kit';

describe('HTTP transport', () => {
  it.each(OPERATION_NAMES)('%s: method, path and body come from the contract', async (name) => {
    const expected = CASES[name];
    const { calls, fetch } = fakeFetch();
    const client = createHttpClient({ baseUrl: BASE, token: 'secret', fetch });

    await expect(call(client.api, name, expected.input)).resolves.toEqual({ fine: true });

    expect(calls).toHaveLength(1);
    const [request] = calls as [Recorded];
    expect(request.url).toBe(BASE + expected.path);
    expect(request.init.method).toBe(expected.method);
    const headers = request.init.headers as Record<string, string>;
    expect(headers.authorization).toBe('Bearer secret');
    const withBody = expected.method === 'POST' || expected.method === 'PATCH';
    if (withBody) {
      expect(headers['content-type']).toBe('application/json');
      expect(JSON.parse(String(request.init.body))).toEqual(expected.body);
    } else {
      expect(request.init.body).toBeUndefined();
    }
    expect(buildHttpRequest(name, expected.input as never)).toEqual({
      method: expected.method,
      path: expected.path,
      ...(withBody ? { body: expected.body } : {}),
    });
  });

  it('turns an error body into an ApiError with its code, message, issues and status', async () => {
    const { fetch } = fakeFetch(() =>
      Response.json(
        {
          error: {
            code: 'invalid_input',
            message: 'invalid input for createTask: instruction: must not be empty',
            issues: [{ path: ['instruction'], message: 'must not be empty' }],
          },
        },
        { status: 400 },
      ),
    );
    const client = createHttpClient({ baseUrl: BASE, token: 't', fetch });
    const error = await client.api.createTask({ instruction: '  ' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ name: 'ApiError', code: 'invalid_input', status: 400 });
    expect((error as ApiError).issueFor('instruction')).toBe('must not be empty');
    expect((error as ApiError).issueFor('title')).toBeUndefined();
  });

  it('reports a body that is not the error shape, and an unreachable bridge, as network errors', async () => {
    const html = createHttpClient({
      baseUrl: BASE,
      token: 't',
      fetch: fakeFetch(() => new Response('<h1>no</h1>', { status: 502 })).fetch,
    });
    await expect(html.api.health({})).rejects.toMatchObject({ code: 'network', status: 502 });
    const down = createHttpClient({
      baseUrl: BASE,
      token: 't',
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await expect(down.api.listTasks({})).rejects.toMatchObject({ code: 'network' });
  });

  it('refuses a call whose path parameter is missing, without sending anything', async () => {
    const { calls, fetch } = fakeFetch();
    const client = createHttpClient({ baseUrl: BASE, token: 't', fetch });
    await expect(call(client.api, 'getTask', {})).rejects.toMatchObject({
      code: 'invalid_input',
      issues: [{ path: ['taskId'], message: 'required' }],
    });
    expect(calls).toHaveLength(0);
  });
});

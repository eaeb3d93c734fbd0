// The HTTP request of an operation: a GET's input other than its path parameters goes in the query string (a list as
// one comma-separated value), so the bridge's contract parse reads the same input the caller gave.
import { describe, expect, it } from 'vitest';
import { contract } from './contract';
import { operationRequest } from './http-request';

describe('operationRequest', () => {
  it('puts a GET’s input in the query, lists comma-separated, absent values left out; the contract parses it back', () => {
    const built = operationRequest('listTasks', {
      limit: 20,
      cursor: 'WzEsMiwzLCJ4Il0',
      status: ['waiting_human', 'failed'],
      archived: false,
      q: 'a&b c',
      space: undefined,
    });
    expect(built).toEqual({
      ok: true,
      request: {
        method: 'GET',
        path: '/api/local/tasks?limit=20&cursor=WzEsMiwzLCJ4Il0&status=waiting_human%2Cfailed&archived=false&q=a%26b+c',
      },
    });
    const path = built.ok ? built.request.path : '';
    const query = Object.fromEntries(new URL(path, 'http://host').searchParams);
    expect(contract.listTasks.input.parse(query)).toEqual({
      limit: 20,
      cursor: 'WzEsMiwzLCJ4Il0',
      status: ['waiting_human', 'failed'],
      archived: false,
      q: 'a&b c',
    });
  });

  it('a GET without other input has no query; path parameters stay in the path; POST input is the body', () => {
    expect(operationRequest('listTasks', {})).toEqual({
      ok: true,
      request: { method: 'GET', path: '/api/local/tasks' },
    });
    expect(operationRequest('getTask', { taskId: 't 1' })).toEqual({
      ok: true,
      request: { method: 'GET', path: '/api/local/tasks/t%201' },
    });
    expect(operationRequest('addComment', { taskId: 't', body: 'hi' })).toEqual({
      ok: true,
      request: { method: 'POST', path: '/api/local/tasks/t/comments', body: { body: 'hi' } },
    });
  });
});

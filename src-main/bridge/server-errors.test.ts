import { describe, expect, it, vi } from 'vitest';
import { ERROR_STATUS, type ErrorCode, MaestroError } from '../../src-shared/errors';
import { expectErrorShape, pathOf, seedParkedTask, snapshot, VALID_BODY } from '../../test-support/bridge-fixtures';
import { testBridge } from '../../test-support/bridge-harness';
import { IllegalTransitionError } from '../jobs/job-state';
import { ConfigFileError } from '../workspace/json-file';
import { ROUTES } from './routes';
import { MAX_BODY_BYTES } from './server';

describe('bridge: errors', () => {
  it('P1.04 every /tasks/:id… route with an unknown id → 404 { error: { code, message } }, nothing changes', async () => {
    const b = await testBridge();
    const { task, tool, pkg } = seedParkedTask(b.maestro);
    const other = b.maestro.invoke('createTask', { instruction: 'another task' }).task;
    const [comment] = b.maestro.store.comments.listForTask(task.id);
    const [otherComment] = b.maestro.store.comments.listForTask(other.id);
    const before = snapshot(b.maestro);
    const taskRoutes = ROUTES.filter((r) => r.params.includes('taskId'));
    expect(taskRoutes).toHaveLength(30);
    for (const route of taskRoutes) {
      for (const taskId of ['task_nope', 'a b', 'a/b']) {
        const res = await b.api(
          route.method,
          pathOf(route.name, { taskId, requestId: tool.id, itemId: comment?.id }),
          VALID_BODY[route.name],
        );
        expectErrorShape(res, 404, 'not_found');
      }
    }
    // Unknown request ids, and a real request id under the wrong task.
    for (const [name, requestId] of [
      ['decideToolRequest', 'treq_nope'],
      ['decidePackageRequest', 'preq_nope'],
      ['decideToolRequest', pkg.id],
      ['decidePackageRequest', tool.id],
    ] as const) {
      const res = await b.api('POST', pathOf(name, { taskId: task.id, requestId }), VALID_BODY[name]);
      expectErrorShape(res, 404, 'not_found');
    }
    for (const [name, requestId] of [
      ['decideToolRequest', tool.id],
      ['decidePackageRequest', pkg.id],
    ] as const) {
      const res = await b.api('POST', pathOf(name, { taskId: other.id, requestId }), VALID_BODY[name]);
      expectErrorShape(res, 404, 'not_found');
    }
    // The page before an unknown comment or step, or before another task's comment.
    for (const itemId of ['cmt_nope', 'step:999999', 'step:x', otherComment?.id]) {
      const res = await b.api('GET', pathOf('listChatBefore', { taskId: task.id, requestId: '', itemId }));
      expectErrorShape(res, 404, 'not_found');
    }
    expect(snapshot(b.maestro)).toBe(before);
  });

  it('P1.02 a body that fails its schema → 400 invalid_input with issues; no task, comment or job row', async () => {
    const b = await testBridge();
    const before = snapshot(b.maestro);
    const cases: [unknown, string][] = [
      [{}, 'instruction'],
      [{ instruction: 5 }, 'instruction'],
      [{ instruction: '   ' }, 'instruction'],
      [{ instruction: 'ok', bogus: true }, ''],
      [{ instruction: 'ok', attachments: [{ name: '../x', mediaType: 'text/plain', data: '' }] }, 'attachments'],
      [{ instruction: 'ok', pieceId: 'no-such-piece' }, 'pieceId'],
      [{ instruction: 'ok', workspacePath: 'relative/path' }, 'workspacePath'],
    ];
    for (const [body, field] of cases) {
      const res = await b.api('POST', '/tasks', body);
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.code).toBe('invalid_input');
      expect(res.json.error.message).toMatch(/\S/);
      expect(Array.isArray(res.json.error.issues)).toBe(true);
      expect(res.json.error.issues.length).toBeGreaterThan(0);
      for (const issue of res.json.error.issues) {
        expect(issue).toEqual({ path: expect.any(Array), message: expect.any(String) });
      }
      if (field) expect(res.json.error.issues.map((i: { path: unknown[] }) => i.path[0])).toContain(field);
    }
    expect(snapshot(b.maestro)).toBe(before);
  });

  it('invalid JSON, a non-object body, or a path param in the body → 400 invalid_input; nothing changes', async () => {
    const b = await testBridge();
    const { task } = b.maestro.invoke('createTask', { instruction: 'x' });
    const before = snapshot(b.maestro);
    for (const text of ['{"instruction": "unterminated', 'not json', '{"a":1,}']) {
      const res = await b.api('POST', '/tasks', text);
      expectErrorShape({ ...res, json: { error: res.json?.error } }, 400, 'invalid_input');
      expect(res.json.error.message).toMatch(/JSON/);
      expect(res.text).not.toContain('unterminated');
    }
    for (const text of ['[1,2]', '"a string"', 'null', '42', 'true']) {
      const res = await b.api('POST', '/tasks', text);
      expect(res.status, text).toBe(400);
      expect(res.json.error.code).toBe('invalid_input');
      expect(res.json.error.message).toMatch(/JSON object/);
    }
    const comment = await b.api('POST', `/tasks/${task.id}/comments`, { taskId: task.id, body: 'hi' });
    expect(comment.status).toBe(400);
    expect(comment.json.error.code).toBe('invalid_input');
    expect(comment.json.error.message).toMatch(/taskId belongs in the path/);
    expect(comment.json.error.issues).toEqual([{ path: ['taskId'], message: expect.any(String) }]);
    const decide = await b.api('POST', `/tasks/${task.id}/tool-requests/treq_x/decide`, {
      requestId: 'treq_y',
      decision: 'deny',
    });
    expect(decide.status).toBe(400);
    expect(snapshot(b.maestro)).toBe(before);
  });

  it('a body over the limit → 413 payload_too_large; nothing changes', async () => {
    const b = await testBridge();
    const before = snapshot(b.maestro);
    const big = JSON.stringify({ instruction: 'x'.repeat(MAX_BODY_BYTES) });
    const res = await b.api('POST', '/tasks', big);
    expectErrorShape(res, 413, 'payload_too_large');
    expect(snapshot(b.maestro)).toBe(before);
    // The server is still answering.
    expect((await b.api('GET', '/health')).status).toBe(200);
  });

  it('a wrong method → 405 with Allow; an unknown route → 404; both with the error shape', async () => {
    const b = await testBridge();
    const { task } = b.maestro.invoke('createTask', { instruction: 'x' });
    for (const [method, p, allow] of [
      ['DELETE', '/tasks', 'GET, POST'],
      ['PUT', '/health', 'GET'],
      ['GET', `/tasks/${task.id}/cancel`, 'POST'],
      ['POST', `/tasks/${task.id}`, 'DELETE, GET, PATCH'],
      ['POST', '/events', 'GET'],
    ] as const) {
      const res = await b.api(method, p, method === 'GET' ? undefined : {});
      expectErrorShape(res, 405, 'method_not_allowed');
      expect(res.headers.get('allow')).toBe(allow);
    }
    for (const p of ['/nope', '/tasks/x/y/z', '/', '/health/', `/tasks/${task.id}/comments/extra`]) {
      expectErrorShape(await b.api('GET', p), 404, 'not_found');
    }
    expectErrorShape(await b.api('GET', '/tasks/%E0%A4%A'), 404, 'not_found');
    expect(b.maestro.invoke('getTask', { taskId: task.id }).jobs[0]?.status).toBe('queued');
  });

  it('a caller error answers its own code and status; any other error is 500 internal, its message kept in', async () => {
    const b = await testBridge();
    const invoke = vi.spyOn(b.maestro, 'invoke');
    for (const code of Object.keys(ERROR_STATUS) as ErrorCode[]) {
      invoke.mockImplementationOnce(() => {
        throw new MaestroError(code, `because of ${code}`);
      });
      const res = await b.api('GET', '/tasks');
      expectErrorShape(res, ERROR_STATUS[code], code);
      expect(res.json.error.message).toBe(`because of ${code}`);
    }
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const internal = [
      new IllegalTransitionError('succeeded', 'running'),
      new ConfigFileError('/data/profiles.json', 'is not valid JSON', { form: 'clause' }),
      new TypeError('x is undefined'),
    ];
    for (const error of internal) {
      invoke.mockImplementationOnce(() => {
        throw error;
      });
      const res = await b.api('GET', '/tasks');
      expectErrorShape(res, 500, 'internal');
      expect(res.json.error).toEqual({ code: 'internal', message: 'internal error' });
    }
    expect(logged.mock.calls.map((call) => call[1])).toEqual(internal);
    logged.mockRestore();
    invoke.mockRestore();
    expect((await b.api('GET', '/tasks')).status).toBe(200);
  });

  it('201 for POST /tasks, comments and continue; 200 for cancel and decisions', async () => {
    const b = await testBridge();
    const created = await b.api('POST', '/tasks', { instruction: 'say hi', title: 'Hi' });
    expect(created.status).toBe(201);
    expect(Object.keys(created.json).sort()).toEqual(['job', 'task']);
    expect(created.json.task).toMatchObject({
      title: 'Hi',
      instruction: 'say hi',
      pieceId: 'default',
      status: 'queued',
    });
    expect(created.json.job).toMatchObject({ taskId: created.json.task.id, status: 'queued', waitReason: null });
    const id = created.json.task.id;

    const comment = await b.api('POST', `/tasks/${id}/comments`, { body: 'in French' });
    expect(comment.status).toBe(201);
    expect(comment.json).toMatchObject({
      disposition: 'reused_job',
      comment: { taskId: id, author: 'user', kind: 'comment', body: 'in French' },
      job: { id: created.json.job.id },
    });

    const cancel = await b.api('POST', `/tasks/${id}/cancel`);
    expect(cancel.status).toBe(200);
    expect(cancel.json.job).toMatchObject({ id: created.json.job.id, status: 'cancelled' });

    const cont = await b.api('POST', `/tasks/${id}/continue`, { instruction: 'go on' });
    expect(cont.status).toBe(201);
    expect(cont.json.job).toMatchObject({ taskId: id, status: 'queued', continuedFromJobId: created.json.job.id });

    const list = await b.api('GET', '/tasks');
    expect(list.json.tasks.map((t: { id: string }) => t.id)).toEqual([id]);
    const usage = await b.api('GET', `/tasks/${id}/usage`);
    expect(usage.status).toBe(200);
    expect(usage.json.total).toEqual({ llmCalls: 0, promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0 });
    expect(Array.isArray(usage.json.jobs)).toBe(true);
    expect((await b.api('GET', `/tasks/${id}/transcript`)).json).toEqual({ entries: [] });

    const parked = seedParkedTask(b.maestro);
    const decided = await b.api('POST', `/tasks/${parked.task.id}/tool-requests/${parked.tool.id}/decide`, {
      decision: 'approve',
    });
    expect(decided.status).toBe(200);
    expect(decided.json.request).toMatchObject({ id: parked.tool.id, status: 'approved', scope: 'once' });
    const pkg = await b.api('POST', `/tasks/${parked.task.id}/package-requests/${parked.pkg.id}/decide`, {
      decision: 'deny',
    });
    expect(pkg.status).toBe(200);
    expect(pkg.json.request).toMatchObject({ id: parked.pkg.id, status: 'denied' });
    expect(b.maestro.store.jobs.get(parked.job.id)?.status).toBe('queued');
  });

  it('P1.07 409 shapes: approval_pending, job_not_terminal, already_decided; nothing changes', async () => {
    const b = await testBridge();
    const { task, tool, pkg } = seedParkedTask(b.maestro);
    const before = snapshot(b.maestro);
    const pending = await b.api('POST', `/tasks/${task.id}/comments`, { body: 'hello?' });
    expectErrorShape(pending, 409, 'approval_pending');
    const notTerminal = await b.api('POST', `/tasks/${task.id}/continue`, {});
    expectErrorShape(notTerminal, 409, 'job_not_terminal');
    expect(snapshot(b.maestro)).toBe(before);

    expect(
      (await b.api('POST', `/tasks/${task.id}/tool-requests/${tool.id}/decide`, { decision: 'deny' })).status,
    ).toBe(200);
    const again = await b.api('POST', `/tasks/${task.id}/tool-requests/${tool.id}/decide`, { decision: 'approve' });
    expectErrorShape(again, 409, 'already_decided');
    expect(b.maestro.store.toolRequests.get(tool.id)?.status).toBe('denied');
    expect(
      (await b.api('POST', `/tasks/${task.id}/package-requests/${pkg.id}/decide`, { decision: 'approve' })).status,
    ).toBe(200);
    const pkgAgain = await b.api('POST', `/tasks/${task.id}/package-requests/${pkg.id}/decide`, { decision: 'deny' });
    expectErrorShape(pkgAgain, 409, 'already_decided');
  });
});

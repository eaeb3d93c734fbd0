import { describe, expect, it } from 'vitest';
import { call, complete, engineHarness, SETTLED } from '../../test-support/engine-harness';
import type { RecordedRequest } from '../../test-support/scripted-llm-server';
import { SUBTASKS_DONE } from './subtask-tool';

type Msg = { role: string; content: string | null; tool_call_id?: string };
const messages = (r: RecordedRequest | undefined) => (r?.body?.messages ?? []) as Msg[];

describe('subtasks', () => {
  it('P4.43 P4.46 P2.26 P2.32 P9.25 create_subtask; complete waits for the child; the child wakes the parent with its result', async () => {
    const h = await engineHarness([
      call('create_subtask', { instruction: 'Write the changelog', title: 'Changelog' }),
      complete('parent finished its part'),
      complete('changelog written'),
      complete('all done'),
    ]);
    const { taskId, jobId } = h.createTask('Release');
    const parked = await h.waitFor(jobId, SETTLED);
    expect(parked).toMatchObject({ status: 'waiting_subtasks', resumeMovement: 'work' });
    const created = messages(h.server.requests[1]).at(-1);
    expect(created?.content).toMatch(/^Subtask "Changelog" started \(task task_\w+, job job_\w+, piece default\)\.$/);
    const child = h.maestro.store.tasks.list().find((t) => t.parentTaskId === taskId);
    expect(child).toMatchObject({ title: 'Changelog', instruction: 'Write the changelog', pieceId: 'default' });
    const childJob = h.maestro.store.jobs.latestForTask(child?.id as string);
    expect(childJob?.parentJobId).toBe(jobId);

    const done = await h.waitFor(jobId, ['succeeded', 'failed']);
    expect(done).toMatchObject({ status: 'succeeded', result: 'all done' });
    expect(h.maestro.store.jobs.get(childJob?.id as string)?.status).toBe('succeeded');
    const woken = messages(h.server.requests[3]);
    expect(woken.at(-1)).toEqual({ role: 'user', content: '# Subtasks\n- Changelog (succeeded): changelog written' });
    const entries = h.maestro.store.logEntries.listForTask(taskId);
    const invokes = entries.filter((e) => e.kind === 'Invoke').map((e) => e.invokeKind);
    expect(invokes).toEqual(['UserSend', 'Notify']);
    const notify = entries.findIndex((e) => e.kind === 'Invoke' && e.invokeKind === 'Notify');
    expect(entries[notify + 1]).toMatchObject({
      kind: 'SystemTurn',
      body: { text: expect.stringContaining('changelog written') },
    });
    const childInvokes = h.maestro.store.logEntries.listForTask(child?.id as string).filter((e) => e.kind === 'Invoke');
    expect(childInvokes.map((e) => e.invokeKind)).toEqual(['PodEvent']);
  });

  it('P4.42 wait_for_subtasks parks the job mid-movement; the last child wakes it, the call is answered, the results follow', async () => {
    const h = await engineHarness([
      call('create_subtask', { instruction: 'Collect the numbers', title: 'Numbers' }),
      call('wait_for_subtasks', {}, 'call_wait'),
      complete('numbers collected: 42'),
      complete('report written with 42'),
    ]);
    const { jobId } = h.createTask('Write the report');
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'waiting_subtasks', resumeMovement: 'work' });
    const done = await h.waitFor(jobId, ['succeeded', 'failed']);
    expect(done).toMatchObject({ status: 'succeeded', result: 'report written with 42' });
    const woken = messages(h.server.requests[3]);
    const answer = woken.findIndex((m) => m.role === 'tool' && m.tool_call_id === 'call_wait');
    expect(woken[answer]?.content).toBe(SUBTASKS_DONE);
    expect(woken[answer + 1]).toEqual({
      role: 'user',
      content: '# Subtasks\n- Numbers (succeeded): numbers collected: 42',
    });
  });

  it('P4.42 wait_for_subtasks with no subtask open answers at once and the loop goes on', async () => {
    const h = await engineHarness([call('wait_for_subtasks', {}, 'call_wait'), complete('nothing to wait for')]);
    const { jobId } = h.createTask('Nothing to wait for');
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'succeeded' });
    const answer = messages(h.server.requests[1]).find((m) => m.role === 'tool' && m.tool_call_id === 'call_wait');
    expect(answer?.content).toBe('No subtask is open; there is nothing to wait for.');
  });

  it('P2.33 a failed child counts as done: the parent resumes with the failure in the notice', async () => {
    const h = await engineHarness([
      call('create_subtask', { instruction: 'Try something' }),
      complete('waiting'),
      complete('impossible', 'failure'),
      complete('handled the failure'),
    ]);
    const { jobId } = h.createTask('Parent');
    const done = await h.waitFor(jobId, ['succeeded', 'failed'], 15_000);
    expect(done.result).toBe('handled the failure');
    expect(messages(h.server.requests[3]).at(-1)?.content).toBe('# Subtasks\n- Try something (failed): impossible');
  });

  it('P4.43 create_subtask with a piece that does not exist gets an Error result', async () => {
    const h = await engineHarness([call('create_subtask', { instruction: 'x', pieceId: 'nope' }), complete()]);
    const { taskId, jobId } = h.createTask('Parent');
    expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
    expect(messages(h.server.requests[1]).at(-1)?.content).toBe('Error: no piece named nope');
    expect(h.maestro.store.tasks.list().filter((t) => t.parentTaskId === taskId)).toEqual([]);
  });
});

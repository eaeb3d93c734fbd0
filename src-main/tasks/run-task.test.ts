// POST /tasks/run for another agent (P10.02): the task is created as POST /tasks creates it, and the answer comes
// when the job has ended (with its result), needs a person, or the wait ran out.
import { describe, expect, it } from 'vitest';
import { testBridge } from '../../test-support/bridge-harness';
import { complete, engineHarness } from '../../test-support/engine-harness';

describe('runTask (A2A)', () => {
  it('P10.02 answers when the job has ended, with its result; the job opened with a PodEvent Invoke', async () => {
    const h = await engineHarness([complete('Two files.')]);
    const out = await h.maestro.invoke('runTask', { instruction: 'How many files are there?' });
    expect(out).toMatchObject({ settled: true, job: { status: 'succeeded', result: 'Two files.' } });
    expect(h.maestro.invoke('getTask', { taskId: out.task.id }).comments[0]).toMatchObject({
      kind: 'instruction',
      author: 'agent',
    });
    const invokes = h.maestro.store.logEntries.listForTask(out.task.id).filter((e) => e.kind === 'Invoke');
    expect(invokes.map((e) => e.invokeKind)).toEqual(['PodEvent']);
  });

  it('P10.02 a job that needs a person answers at once with the wait; a slow one answers when the wait runs out', async () => {
    const h = await engineHarness([
      complete('Which branch?', 'needs_user_input'),
      { ...complete('slow'), delayMs: 1_500 },
    ]);
    const asked = await h.maestro.invoke('runTask', { instruction: 'Merge it' });
    expect(asked).toMatchObject({ settled: true, job: { status: 'waiting_human', waitReason: 'ask' } });
    const started = Date.now();
    const slow = await h.maestro.invoke('runTask', { instruction: 'Take your time', waitMs: 200 });
    expect(slow).toMatchObject({ settled: false, job: { status: 'running' } });
    expect(Date.now() - started).toBeLessThan(1_400);
  });

  it('P10.02 the same validation as POST /tasks, over HTTP: bad input is a 400 and nothing is created', async () => {
    const b = await testBridge();
    const bad = await b.api('POST', '/tasks/run', { instruction: 'x', waitMs: 0 });
    expect(bad.status).toBe(400);
    const unknown = await b.api('POST', '/tasks/run', { instruction: 'x', pieceId: 'nope' });
    expect(unknown.status).toBe(400);
    expect(b.maestro.invoke('listTasks', {}).tasks).toEqual([]);
  });
});

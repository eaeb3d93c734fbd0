import { describe, expect, it } from 'vitest';
import { rawJob, rowCounts } from '../../test-support/db';
import { insertChildJob, moveTo, setup } from '../../test-support/tasks';

describe('cancelTask', () => {
  it('P1.21 cancelling a running job → cancelled; its abort signal fires; child and grandchild jobs cancelled and aborted', () => {
    const { m, store, create } = setup();
    const { task, job } = create();
    moveTo(store, job.id, 'running');
    const signal = m.ctx.aborts.register(job.id);
    const child = insertChildJob(store, task.id, job.id);
    moveTo(store, child.id, 'waiting_subtasks');
    const childSignal = m.ctx.aborts.register(child.id);
    const grandchild = insertChildJob(store, child.taskId, child.id);
    moveTo(store, grandchild.id, 'running');
    const grandchildSignal = m.ctx.aborts.register(grandchild.id);

    const out = m.invoke('cancelTask', { taskId: task.id });
    expect(out.job).toMatchObject({ id: job.id, status: 'cancelled' });
    expect(store.jobs.get(job.id)?.status).toBe('cancelled');
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toMatch(/cancel/);
    expect(store.jobs.get(child.id)?.status).toBe('cancelled');
    expect(store.jobs.get(grandchild.id)?.status).toBe('cancelled');
    expect(childSignal.aborted).toBe(true);
    expect(grandchildSignal.aborted).toBe(true);
    expect(m.invoke('getTask', { taskId: task.id }).task.status).toBe('cancelled');
  });

  it.each([
    ['queued', {}],
    ['retry', {}],
    ['waiting_subtasks', {}],
    ['waiting_human', { waitReason: 'ask' as const }],
  ] as const)('P1.22 cancelling a %s job → cancelled at once', (status, options) => {
    const { m, store, create } = setup();
    const { task, job } = create();
    moveTo(store, job.id, status, options);
    const out = m.invoke('cancelTask', { taskId: task.id });
    expect(out.job).toMatchObject({ id: job.id, status: 'cancelled', waitReason: null, nextRetryAt: null });
    expect(store.jobs.get(job.id)?.status).toBe('cancelled');
  });

  it('P1.22 cancelling a job parked on requests → pending tool/package requests denied, decided ones kept; children cancelled', () => {
    const { m, store, create } = setup();
    const { task, job } = create();
    moveTo(store, job.id, 'waiting_human', { waitReason: 'tool_request', toolRequests: 2, packageRequests: 1 });
    const [approved] = store.toolRequests.listForJob(job.id);
    store.toolRequests.decide(approved?.id as string, 'approved', 'once');
    const child = insertChildJob(store, task.id, job.id);
    const events: string[] = [];
    store.subscribe((e) => events.push(e.type));

    m.invoke('cancelTask', { taskId: task.id });
    expect(store.toolRequests.listForJob(job.id).map((r) => r.status)).toEqual(['approved', 'denied']);
    expect(store.packageRequests.listForJob(job.id).map((r) => r.status)).toEqual(['denied']);
    expect(store.jobs.get(child.id)?.status).toBe('cancelled');
    expect(events.filter((e) => e === 'tool_request.changed')).toHaveLength(1);
    expect(events.filter((e) => e === 'package_request.changed')).toHaveLength(1);
    expect(events.filter((e) => e === 'job.changed')).toHaveLength(2);
  });

  it.each(['succeeded', 'failed', 'cancelled'] as const)(
    'P1.23 cancelling when the latest job is already %s → 200 with the job unchanged; nothing written',
    (status) => {
      const { m, store, create } = setup();
      const { task, job } = create();
      moveTo(store, job.id, status);
      const signal = m.ctx.aborts.register(job.id);
      const before = rawJob(store, job.id);
      const counts = rowCounts(store);
      const out = m.invoke('cancelTask', { taskId: task.id });
      expect(out.job).toMatchObject({ id: job.id, status });
      expect(out.job).toEqual(m.invoke('getTask', { taskId: task.id }).jobs[0]);
      expect(rawJob(store, job.id)).toEqual(before);
      expect(rowCounts(store)).toEqual(counts);
      expect(signal.aborted).toBe(false);
    },
  );

  it('P1.22 P2.33 cancelling a subtask’s task: the cancelled child counts as done and wakes its waiting parent', () => {
    const { m, store, create } = setup();
    const parent = create();
    moveTo(store, parent.job.id, 'waiting_subtasks');
    const child = insertChildJob(store, parent.task.id, parent.job.id);
    m.invoke('cancelTask', { taskId: child.taskId });
    expect(store.jobs.get(child.id)?.status).toBe('cancelled');
    expect(store.jobs.get(parent.job.id)).toMatchObject({ status: 'queued', pendingInvoke: 'Notify' });
  });
});

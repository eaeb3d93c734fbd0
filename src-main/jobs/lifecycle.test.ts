import { describe, expect, it } from 'vitest';
import type { MaestroEvent } from '../../src-shared/events';
import { insertChildJob, moveTo, setup } from '../../test-support/tasks';
import { changeJob, wakeParentIfDone } from './job-writes';
import { cancelJobTree } from './lifecycle';

/** A parent job in waiting_subtasks (movement `fanout`) with `n` child jobs, each running. */
function family(n: number) {
  const ctx = setup();
  const { task, job } = ctx.create();
  moveTo(ctx.store, job.id, 'running');
  const children = Array.from({ length: n }, () => {
    const child = insertChildJob(ctx.store, task.id, job.id);
    return moveTo(ctx.store, child.id, 'running');
  });
  ctx.store.jobs.transition(job.id, 'running', 'waiting_subtasks', { resumeMovement: 'fanout', pendingInvoke: null });
  return { ...ctx, parent: job, children };
}

describe('parent wake-up and job trees', () => {
  it('P2.32 P2.33 the parent stays waiting while a sibling is open, and is queued (Notify) when its last child ends', () => {
    const { store, parent, children } = family(2);
    const events: MaestroEvent[] = [];
    store.subscribe((e) => events.push(e));
    const [first, second] = children;
    store.transact(() => changeJob(store, first as NonNullable<typeof first>, 'succeeded', { result: 'ok' }));
    expect(store.jobs.get(parent.id)).toMatchObject({ status: 'waiting_subtasks', pendingInvoke: null });

    store.transact(() => changeJob(store, second as NonNullable<typeof second>, 'failed', { error: 'bad' }));
    expect(store.jobs.get(parent.id)).toMatchObject({
      status: 'queued',
      pendingInvoke: 'Notify',
      resumeMovement: 'fanout',
    });
    const parentEvents = events.filter((e) => e.type === 'job.changed' && e.jobId === parent.id);
    expect(parentEvents).toHaveLength(1);
    expect(parentEvents[0]).toMatchObject({ job: { status: 'queued' } });
  });

  it('P2.33 a child that ends cancelled counts as done', () => {
    const { store, parent, children } = family(1);
    const child = children[0] as NonNullable<(typeof children)[0]>;
    store.transact(() => cancelJobTree(store, child));
    expect(store.jobs.get(child.id)?.status).toBe('cancelled');
    expect(store.jobs.get(parent.id)).toMatchObject({ status: 'queued', pendingInvoke: 'Notify' });
  });

  it('P2.32 a child that parks (not terminal) does not wake the parent; a parent that is not waiting is left alone', () => {
    const { store, parent, children } = family(1);
    const child = children[0] as NonNullable<(typeof children)[0]>;
    store.transact(() => changeJob(store, child, 'waiting_human', { waitReason: 'ask' }));
    expect(store.jobs.get(parent.id)?.status).toBe('waiting_subtasks');

    // A running parent whose child ends keeps running: it checks its children when it completes.
    const other = family(1);
    const runningParent = other.parent.id;
    other.store.jobs.transition(runningParent, 'waiting_subtasks', 'queued');
    other.store.jobs.transition(runningParent, 'queued', 'running', { workerId: 'w1' });
    const before = other.store.jobs.get(runningParent);
    const c = other.children[0] as NonNullable<(typeof other.children)[0]>;
    other.store.transact(() => changeJob(other.store, c, 'succeeded'));
    expect(other.store.jobs.get(runningParent)).toEqual(before);
  });

  it('P2.32 wakeParentIfDone on a parent whose children all ended before it parked queues it at once', () => {
    const { store, create } = setup();
    const { task, job } = create();
    moveTo(store, job.id, 'running');
    const child = insertChildJob(store, task.id, job.id);
    moveTo(store, child.id, 'succeeded');
    store.jobs.transition(job.id, 'running', 'waiting_subtasks', { resumeMovement: 'fanout' });
    store.transact(() => wakeParentIfDone(store, { parentJobId: job.id }));
    expect(store.jobs.get(job.id)).toMatchObject({ status: 'queued', pendingInvoke: 'Notify' });
  });

  it('changeJob with a stale status or another owner changes nothing and publishes nothing', () => {
    const { store, create } = setup();
    const { job } = create();
    moveTo(store, job.id, 'running'); // held by w1
    const events: MaestroEvent[] = [];
    store.subscribe((e) => events.push(e));
    const stale = store.transact(() => changeJob(store, { id: job.id, status: 'queued' }, 'cancelled'));
    const notOwner = store.transact(() => changeJob(store, { id: job.id, status: 'running' }, 'failed', {}, 'w2'));
    expect(stale).toBeUndefined();
    expect(notOwner).toBeUndefined();
    expect(events).toEqual([]);
    expect(store.jobs.get(job.id)?.status).toBe('running');
  });

  it('P2.27 cancelling a parent cancels its open subtask jobs and says so, in English and as a notice for the UI', () => {
    const { store, parent, children } = family(2);
    store.transact(() =>
      cancelJobTree(store, store.jobs.get(parent.id) as NonNullable<ReturnType<typeof store.jobs.get>>),
    );
    expect(children.map((c) => store.jobs.get(c.id)?.status)).toEqual(['cancelled', 'cancelled']);
    expect(store.comments.listForJob(parent.id).filter((c) => c.author === 'system')).toMatchObject([
      {
        kind: 'comment',
        body: 'Cancelled. 2 subtask job(s) cancelled with it.',
        notice: { code: 'cancelled', subtasks: 2 },
      },
    ]);
  });

  it('cancelJobTree on an already terminal job returns undefined and leaves its (closed) tree alone', () => {
    const { store, create } = setup();
    const { job } = create();
    const done = moveTo(store, job.id, 'succeeded');
    expect(cancelJobTree(store, done)).toBeUndefined();
    expect(store.jobs.get(job.id)?.status).toBe('succeeded');
  });
});

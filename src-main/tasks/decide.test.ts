import { describe, expect, it } from 'vitest';
import { rawJob, rowCounts, tempStore } from '../../test-support/db';
import { expectMaestroError, moveTo, setup } from '../../test-support/tasks';
import type { AppContext } from '../app/context';
import { invoke } from '../app/operations';

/** A task whose job is parked on `tools` tool requests and `packages` package requests. */
function parked(tools: number, packages: number) {
  const ctx = setup();
  const { task, job } = ctx.create();
  moveTo(ctx.store, job.id, 'waiting_human', {
    waitReason: tools > 0 ? 'tool_request' : 'package_request',
    resumeMovement: 'build',
    toolRequests: tools,
    packageRequests: packages,
  });
  return {
    ...ctx,
    task,
    job,
    tools: ctx.store.toolRequests.listForJob(job.id),
    packages: ctx.store.packageRequests.listForJob(job.id),
  };
}

describe('decideToolRequest / decidePackageRequest', () => {
  it('approve (scope once by default) → request approved; the parked job queued again in its movement (decision side)', () => {
    const { m, store, task, job, tools } = parked(1, 0);
    const events: string[] = [];
    store.subscribe((e) => events.push(e.type));
    const rid = tools[0]?.id as string;
    const out = m.invoke('decideToolRequest', { taskId: task.id, requestId: rid, decision: 'approve' });
    expect(out.request).toMatchObject({ id: rid, status: 'approved', scope: 'once', decidedAt: expect.any(String) });
    expect(out.request).not.toHaveProperty('args');
    expect(store.jobs.get(job.id)).toMatchObject({ status: 'queued', waitReason: null, resumeMovement: 'build' });
    expect(events).toEqual(['tool_request.changed', 'job.changed']);
    expect(m.invoke('listToolRequests', { taskId: task.id }).requests).toEqual([out.request]);
  });

  it('P7.04 approve with scope task and no grant choice → the narrowest grant: exactly the command the card showed', () => {
    const { m, store, task, tools } = parked(1, 0);
    const rid = tools[0]?.id as string;
    m.invoke('decideToolRequest', { taskId: task.id, requestId: rid, decision: 'approve', scope: 'task' });
    expect(store.toolRequests.get(rid)).toMatchObject({ status: 'approved', scope: 'task' });
    expect(m.invoke('listTaskGrants', { taskId: task.id }).grants).toEqual([
      {
        id: expect.stringMatching(/^grant_/),
        taskId: task.id,
        requestId: rid,
        tool: 'run_command',
        kind: 'exact',
        target: { kind: 'command', value: 'echo 0' },
        rule: null,
        createdAt: expect.any(String),
        revokedAt: null,
      },
    ]);
  });

  it('a grant choice that does not fit is a 400 that says what was wrong, and nothing is decided or granted', () => {
    const { m, store, task, job, tools } = parked(1, 0);
    const rid = tools[0]?.id as string;
    const decide = (input: Record<string, unknown>) => () =>
      m.invoke('decideToolRequest', { taskId: task.id, requestId: rid, ...input } as never);
    const before = rowCounts(store);
    expect(
      expectMaestroError(
        decide({ decision: 'approve', scope: 'task', grant: { kind: 'prefix', rule: 'rm *' } }),
        'invalid_input',
      ).message,
    ).toBe('the rule "rm *" does not cover the command the card showed ("echo 0")');
    expect(
      expectMaestroError(decide({ decision: 'approve', grant: { kind: 'tool' } }), 'invalid_input').message,
    ).toContain("grant: a grant goes with decision 'approve' and scope 'task' only");
    expectMaestroError(decide({ decision: 'deny', scope: 'task', grant: { kind: 'exact' } }), 'invalid_input');
    expectMaestroError(decide({ decision: 'approve', scope: 'task', grant: { kind: 'everything' } }), 'invalid_input');
    expect(rowCounts(store)).toEqual(before);
    expect(m.invoke('listTaskGrants', { taskId: task.id }).grants).toEqual([]);
    expect(store.toolRequests.get(rid)?.status).toBe('pending');
    expect(store.jobs.get(job.id)?.status).toBe('waiting_human');
  });

  it('revoke a grant: it stays listed with revokedAt; twice → 409; unknown or of another task → 404', () => {
    const { m, store, task, tools } = parked(1, 0);
    const rid = tools[0]?.id as string;
    m.invoke('decideToolRequest', {
      taskId: task.id,
      requestId: rid,
      decision: 'approve',
      scope: 'task',
      grant: { kind: 'prefix', rule: 'echo *' },
    });
    const [grant] = m.invoke('listTaskGrants', { taskId: task.id }).grants;
    expect(grant).toMatchObject({ kind: 'prefix', rule: 'echo *', target: null });
    const other = m.invoke('createTask', { instruction: 'another' }).task;
    expectMaestroError(
      () => m.invoke('revokeTaskGrant', { taskId: other.id, grantId: grant?.id as string }),
      'not_found',
    );
    expectMaestroError(() => m.invoke('revokeTaskGrant', { taskId: task.id, grantId: 'grant_nope' }), 'not_found');
    const { grant: revoked } = m.invoke('revokeTaskGrant', { taskId: task.id, grantId: grant?.id as string });
    expect(revoked).toMatchObject({ id: grant?.id, revokedAt: expect.any(String) });
    expectMaestroError(
      () => m.invoke('revokeTaskGrant', { taskId: task.id, grantId: grant?.id as string }),
      'conflict',
    );
    expect(store.taskGrants.activeForTask(task.id)).toEqual([]);
    expect(m.invoke('listTaskGrants', { taskId: task.id }).grants).toEqual([revoked]);
  });

  it('deny → request denied without a scope; the job queued again (decision side)', () => {
    const { m, store, task, job, tools } = parked(1, 0);
    const rid = tools[0]?.id as string;
    const out = m.invoke('decideToolRequest', { taskId: task.id, requestId: rid, decision: 'deny', scope: 'task' });
    expect(out.request).toMatchObject({ status: 'denied', scope: null });
    expect(store.jobs.get(job.id)?.status).toBe('queued');
  });

  it.each(['approve', 'deny'] as const)('package request %s → decided by CAS; the job queued again', (decision) => {
    const { m, store, task, job, packages } = parked(0, 1);
    const rid = packages[0]?.id as string;
    const out = m.invoke('decidePackageRequest', { taskId: task.id, requestId: rid, decision });
    expect(out.request).toMatchObject({ id: rid, status: decision === 'approve' ? 'approved' : 'denied' });
    expect(store.jobs.get(job.id)?.status).toBe('queued');
    expect(m.invoke('listPackageRequests', { taskId: task.id }).requests).toEqual([out.request]);
  });

  it('P4.44 the parked job is queued only when ALL its requests are decided; its pendingInvoke is cleared', () => {
    const { m, store, task, job, tools, packages } = parked(2, 1);
    expect(store.jobs.get(job.id)?.pendingInvoke).toBe('UserSend');
    m.invoke('decideToolRequest', { taskId: task.id, requestId: tools[0]?.id as string, decision: 'approve' });
    expect(store.jobs.get(job.id)?.status).toBe('waiting_human');
    m.invoke('decidePackageRequest', { taskId: task.id, requestId: packages[0]?.id as string, decision: 'deny' });
    expect(store.jobs.get(job.id)?.status).toBe('waiting_human');
    m.invoke('decideToolRequest', { taskId: task.id, requestId: tools[1]?.id as string, decision: 'deny' });
    expect(store.jobs.get(job.id)).toMatchObject({ status: 'queued', resumeMovement: 'build', pendingInvoke: null });
  });

  it('P7.06 deciding an already decided request → 409 already_decided; nothing changes', () => {
    const { m, store, task, job, tools } = parked(2, 0);
    const rid = tools[0]?.id as string;
    m.invoke('decideToolRequest', { taskId: task.id, requestId: rid, decision: 'approve' });
    const before = { job: rawJob(store, job.id), request: store.toolRequests.get(rid), counts: rowCounts(store) };
    expectMaestroError(
      () => m.invoke('decideToolRequest', { taskId: task.id, requestId: rid, decision: 'deny' }),
      'already_decided',
    );
    expect({ job: rawJob(store, job.id), request: store.toolRequests.get(rid), counts: rowCounts(store) }).toEqual(
      before,
    );
  });

  it('P7.06 an already decided package request → 409 already_decided', () => {
    const { m, store, task, packages } = parked(0, 2);
    const rid = packages[0]?.id as string;
    m.invoke('decidePackageRequest', { taskId: task.id, requestId: rid, decision: 'deny' });
    expectMaestroError(
      () => m.invoke('decidePackageRequest', { taskId: task.id, requestId: rid, decision: 'approve' }),
      'already_decided',
    );
    expect(store.packageRequests.get(rid)?.status).toBe('denied');
  });

  it('P7.07 two decides from two connections: one wins, the other gets 409 already_decided', () => {
    const { m, store, task, job, tools } = parked(1, 0);
    const other = tempStore(store.db.name); // a second connection, on PostgreSQL too (MAESTRO_TEST_DIALECT)
    try {
      const ctx2: AppContext = { ...m.ctx, store: other };
      const rid = tools[0]?.id as string;
      const first = invoke(ctx2, 'decideToolRequest', { taskId: task.id, requestId: rid, decision: 'deny' });
      expect(first.request.status).toBe('denied');
      expectMaestroError(
        () => m.invoke('decideToolRequest', { taskId: task.id, requestId: rid, decision: 'approve', scope: 'task' }),
        'already_decided',
      );
      expect(store.toolRequests.get(rid)).toMatchObject({ status: 'denied', scope: null });
      expect(store.jobs.get(job.id)?.status).toBe('queued');
      expect(store.events.since(0).filter((e) => e.type === 'tool_request.changed')).toHaveLength(1);
    } finally {
      other.close();
    }
  });

  it('P7.11 an unknown rid, a rid of another task, or a tool rid on the package route → 404; nothing changes', () => {
    const { m, store, task, tools, packages } = parked(1, 1);
    const otherTask = m.invoke('createTask', { instruction: 'other' }).task;
    const counts = rowCounts(store);
    const tool = tools[0]?.id as string;
    const pkg = packages[0]?.id as string;
    const calls = [
      () => m.invoke('decideToolRequest', { taskId: task.id, requestId: 'treq_nope', decision: 'approve' }),
      () => m.invoke('decidePackageRequest', { taskId: task.id, requestId: 'preq_nope', decision: 'approve' }),
      () => m.invoke('decideToolRequest', { taskId: otherTask.id, requestId: tool, decision: 'approve' }),
      () => m.invoke('decidePackageRequest', { taskId: otherTask.id, requestId: pkg, decision: 'deny' }),
      () => m.invoke('decidePackageRequest', { taskId: task.id, requestId: tool, decision: 'deny' }),
      () => m.invoke('decideToolRequest', { taskId: task.id, requestId: pkg, decision: 'deny' }),
    ];
    for (const call of calls) expectMaestroError(call, 'not_found');
    expect(rowCounts(store)).toEqual(counts);
    expect(store.toolRequests.get(tool)?.status).toBe('pending');
    expect(store.packageRequests.get(pkg)?.status).toBe('pending');
  });

  it('P7.12 deciding after the job was cancelled → 409 job_not_waiting; nothing changes', () => {
    const { m, store, task, tools, packages } = parked(1, 1);
    m.invoke('cancelTask', { taskId: task.id });
    const counts = rowCounts(store);
    expectMaestroError(
      () => m.invoke('decideToolRequest', { taskId: task.id, requestId: tools[0]?.id as string, decision: 'approve' }),
      'job_not_waiting',
    );
    expectMaestroError(
      () =>
        m.invoke('decidePackageRequest', {
          taskId: task.id,
          requestId: packages[0]?.id as string,
          decision: 'approve',
        }),
      'job_not_waiting',
    );
    expect(rowCounts(store)).toEqual(counts);
    expect(store.toolRequests.get(tools[0]?.id as string)?.status).toBe('denied');
  });

  it('P7.12 a still-pending request of a job that is no longer waiting (cancelled behind its back, or running) → job_not_waiting', () => {
    const { m, store, task, job, tools } = parked(1, 0);
    const rid = tools[0]?.id as string;
    store.jobs.transition(job.id, 'waiting_human', 'cancelled'); // requests left pending
    expectMaestroError(
      () => m.invoke('decideToolRequest', { taskId: task.id, requestId: rid, decision: 'approve' }),
      'job_not_waiting',
    );
    expect(store.toolRequests.get(rid)?.status).toBe('pending');

    const second = parked(1, 0);
    const rid2 = second.tools[0]?.id as string;
    second.store.jobs.transition(second.job.id, 'waiting_human', 'queued');
    second.store.jobs.transition(second.job.id, 'queued', 'running');
    expectMaestroError(
      () => second.m.invoke('decideToolRequest', { taskId: second.task.id, requestId: rid2, decision: 'deny' }),
      'job_not_waiting',
    );
    expect(second.store.toolRequests.get(rid2)?.status).toBe('pending');
    expect(second.store.jobs.get(second.job.id)?.status).toBe('running');
  });

  it('decide input: a bad decision or scope → invalid_input; nothing changes', () => {
    const { m, store, task, tools } = parked(1, 0);
    const rid = tools[0]?.id as string;
    const counts = rowCounts(store);
    expectMaestroError(
      () => m.invoke('decideToolRequest', { taskId: task.id, requestId: rid, decision: 'maybe' }),
      'invalid_input',
    );
    expectMaestroError(
      () => m.invoke('decideToolRequest', { taskId: task.id, requestId: rid, decision: 'approve', scope: 'forever' }),
      'invalid_input',
    );
    expectMaestroError(
      () => m.invoke('decidePackageRequest', { taskId: task.id, requestId: rid, decision: 'approve', scope: 'task' }),
      'invalid_input',
    );
    expect(rowCounts(store)).toEqual(counts);
  });
});

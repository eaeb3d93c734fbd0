// The request commands on real SQLite files: a decision is a compare-and-set that queues the parked job once none of
// its requests is pending; deciding what is already decided, a request of another task, or one whose job was
// cancelled is refused with its code and writes nothing; an approved call is marked started once.
import { describe, expect, it } from 'vitest';
import { insertTask } from '../../test-support/db';
import { jobIn, RUN, snapshot } from '../../test-support/job-states';
import type { Store } from '../db/store';
import { grantOf } from '../tools/grants';
import { cancelJobTree } from './lifecycle';
import { decidePackageRequest, decideToolRequest, markCallStarted } from './requests';
import { park } from './run-outcomes';

const onceDecision = (store: Store, requestId: string, taskId: string, approved = true) =>
  decideToolRequest(store, { taskId, requestId, approved, scope: 'once' });

/** A job parked on one tool request (and its request). */
function parkedOnTool() {
  const { store, job } = jobIn('waiting_human:tool_request');
  const request = store.toolRequests.listForJob(job.id)[0] as NonNullable<ReturnType<Store['toolRequests']['get']>>;
  return { store, job, request };
}

function expectRefused(store: Store, call: () => unknown, code: string, command: string) {
  const before = snapshot(store);
  expect(call).toThrow(expect.objectContaining({ name: 'JobCommandError', code, command }));
  expect(snapshot(store)).toEqual(before);
}

describe('decideToolRequest / decidePackageRequest (issue 24)', () => {
  it('P7.03 P9.05 an approval (once) decides the request and queues the job inside its Invoke', () => {
    const { store, job, request } = parkedOnTool();
    const decided = onceDecision(store, request.id, job.taskId);
    expect(decided).toMatchObject({ status: 'approved', scope: 'once' });
    expect(store.jobs.get(job.id)).toMatchObject({ status: 'queued', pendingInvoke: null, resumeMovement: 'work' });
  });

  it('P4.44 with two requests the job stays parked until the second is decided', () => {
    const { store, job } = jobIn('running');
    const tool = (callId: string) => ({ callId, tool: 'run_command', args: { command: callId }, summary: callId });
    park(store, job.id, RUN, {
      reason: 'approval',
      movement: 'work',
      toolRequests: [tool('a'), tool('b')],
      packageRequests: [],
    });
    const [a, b] = store.toolRequests.listForJob(job.id);
    onceDecision(store, a?.id as string, job.taskId);
    expect(store.jobs.get(job.id)).toMatchObject({ status: 'waiting_human', waitReason: 'tool_request' });
    onceDecision(store, b?.id as string, job.taskId, false);
    expect(store.jobs.get(job.id)?.status).toBe('queued');
  });

  it('P7.04 an approval for the task stores the grant the callback makes, with the decision', () => {
    const { store, job, request } = parkedOnTool();
    const made = grantOf(request.tool, request.args, { kind: 'exact' });
    if (!made.ok) throw new Error(made.message);
    const grant = made.grant;
    decideToolRequest(store, {
      taskId: job.taskId,
      requestId: request.id,
      approved: true,
      scope: 'task',
      grant: () => grant,
    });
    expect(store.taskGrants.listForTask(job.taskId)).toMatchObject([{ requestId: request.id, tool: 'run_command' }]);
  });

  it('a grant that cannot be made refuses the decision: nothing is decided, no job moves', () => {
    const { store, job, request } = parkedOnTool();
    const before = snapshot(store);
    const refuse = () => {
      throw new Error('that grant does not fit the call');
    };
    expect(() =>
      decideToolRequest(store, {
        taskId: job.taskId,
        requestId: request.id,
        approved: true,
        scope: 'task',
        grant: refuse,
      }),
    ).toThrow(/does not fit/);
    expect(snapshot(store)).toEqual(before);
  });

  it('P7.06 P7.07 approving a request already answered is refused (already_decided) and writes nothing', () => {
    const { store, job, request } = parkedOnTool();
    onceDecision(store, request.id, job.taskId, false);
    expectRefused(store, () => onceDecision(store, request.id, job.taskId), 'already_decided', 'decideToolRequest');
  });

  it('P7.11 a request of another task (or none) is refused as not_found and writes nothing', () => {
    const { store, request } = parkedOnTool();
    const otherTask = insertTask(store);
    expectRefused(store, () => onceDecision(store, request.id, otherTask), 'not_found', 'decideToolRequest');
    expectRefused(store, () => onceDecision(store, 'treq_nope', otherTask), 'not_found', 'decideToolRequest');
  });

  it('P7.12 deciding after the job was cancelled is refused (job_not_waiting): nothing installed, nothing queued', () => {
    const { store, job } = jobIn('waiting_human:package_request');
    const request = store.packageRequests.listForJob(job.id)[0];
    cancelJobTree(store, job);
    expectRefused(
      store,
      () => decidePackageRequest(store, { taskId: job.taskId, requestId: request?.id as string, approved: true }),
      'job_not_waiting',
      'decidePackageRequest',
    );
  });

  it('P7.08 a package approval decides it and queues the job', () => {
    const { store, job } = jobIn('waiting_human:package_request');
    const request = store.packageRequests.listForJob(job.id)[0];
    const decided = decidePackageRequest(store, {
      taskId: job.taskId,
      requestId: request?.id as string,
      approved: true,
    });
    expect(decided.status).toBe('approved');
    expect(store.jobs.get(job.id)?.status).toBe('queued');
  });

  it('markCallStarted: an approved call starts once; a pending or denied one never', () => {
    const { store, job, request } = parkedOnTool();
    expect(markCallStarted(store, { kind: 'tool', id: request.id })).toBe(false);
    onceDecision(store, request.id, job.taskId);
    expect(markCallStarted(store, { kind: 'tool', id: request.id })).toBe(true);
    expect(markCallStarted(store, { kind: 'tool', id: request.id })).toBe(false);
  });
});

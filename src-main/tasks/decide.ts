// POST …/tool-requests/:rid/decide and …/package-requests/:rid/decide: compare-and-set decisions (an approval for the
// task stores the grant the person chose, in the same transaction); once every request of the parked job is decided,
// the job is queued again and resumes in the same movement.
import type { OpOutput, OpParsedInput } from '../../src-shared/contract';
import type { RequestStatus } from '../../src-shared/entities';
import { MaestroError } from '../../src-shared/errors';
import type { GrantChoice } from '../../src-shared/grants';
import type { JobRecord } from '../db/repos/jobs';
import { type ToolRequestRecord, toToolRequest } from '../db/repos/tool-requests';
import { changeJob } from '../jobs/lifecycle';
import { type GrantScope, grantOf } from '../tools/grants';
import type { TaskContext } from './context';
import { notFound } from './errors';
import { requireTask } from './queries';

interface Decidable {
  taskId: string;
  jobId: string;
  status: RequestStatus;
}

function checkDecidable(
  ctx: TaskContext,
  request: Decidable | undefined,
  taskId: string,
  requestId: string,
): JobRecord {
  if (!request || request.taskId !== taskId) throw notFound('request', requestId);
  const job = ctx.store.jobs.get(request.jobId) as JobRecord;
  if (job.status === 'cancelled') throw new MaestroError('job_not_waiting', `job ${job.id} was cancelled`);
  if (request.status !== 'pending')
    throw new MaestroError('already_decided', `request ${requestId} is already ${request.status}`);
  if (job.status !== 'waiting_human') {
    throw new MaestroError('job_not_waiting', `job ${job.id} is ${job.status}, not waiting for this decision`);
  }
  return job;
}

/** Queues the parked job once none of its tool or package requests is pending. */
function resumeIfAllDecided(ctx: TaskContext, job: JobRecord): void {
  const { store } = ctx;
  if (store.toolRequests.pendingCount(job.id) + store.packageRequests.pendingCount(job.id) > 0) return;
  // The decision resumes the parked run inside its Invoke: no new Invoke opens (P9.05).
  changeJob(store, job, 'queued', { pendingInvoke: null });
}

/**
 * What "for this task" grants of the call the card showed: the person's choice, or without one exactly what was shown
 * (the narrowest). A choice that does not fit the call is the caller's error, and nothing is decided.
 */
function grantFor(request: ToolRequestRecord, choice: GrantChoice | undefined): GrantScope {
  const made = grantOf(request.tool, request.args, choice ?? { kind: 'exact' });
  if (!made.ok) throw new MaestroError('invalid_input', made.message, [{ path: ['grant'], message: made.message }]);
  return made.grant;
}

export function decideToolRequest(
  ctx: TaskContext,
  input: OpParsedInput<'decideToolRequest'>,
): OpOutput<'decideToolRequest'> {
  const { store } = ctx;
  requireTask(ctx, input.taskId);
  return store.transact(() => {
    const record = store.toolRequests.get(input.requestId);
    const job = checkDecidable(ctx, record, input.taskId, input.requestId);
    const approved = input.decision === 'approve';
    const grant = approved && input.scope === 'task' ? grantFor(record as ToolRequestRecord, input.grant) : null;
    const decided = store.toolRequests.decide(
      input.requestId,
      approved ? 'approved' : 'denied',
      approved ? input.scope : null,
      Date.now(),
      approved ? null : (input.reason ?? null),
    );
    if (!decided) throw new MaestroError('already_decided', `request ${input.requestId} is already decided`);
    if (grant) store.taskGrants.insert(input.taskId, decided.id, grant);
    const request = toToolRequest(decided);
    store.publish({ type: 'tool_request.changed', taskId: input.taskId, jobId: job.id, request });
    resumeIfAllDecided(ctx, job);
    return { request };
  });
}

export function decidePackageRequest(
  ctx: TaskContext,
  input: OpParsedInput<'decidePackageRequest'>,
): OpOutput<'decidePackageRequest'> {
  const { store } = ctx;
  requireTask(ctx, input.taskId);
  return store.transact(() => {
    const job = checkDecidable(ctx, store.packageRequests.get(input.requestId), input.taskId, input.requestId);
    const approved = input.decision === 'approve';
    const request = store.packageRequests.decide(
      input.requestId,
      approved ? 'approved' : 'denied',
      Date.now(),
      approved ? null : (input.reason ?? null),
    );
    if (!request) throw new MaestroError('already_decided', `request ${input.requestId} is already decided`);
    store.publish({ type: 'package_request.changed', taskId: input.taskId, jobId: job.id, request });
    resumeIfAllDecided(ctx, job);
    return { request };
  });
}

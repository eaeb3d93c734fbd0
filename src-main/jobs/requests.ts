// Commands on tool and package requests: the cards a parked run opens, a person's decision (compare-and-set; the job
// goes on once none of its requests is pending), the denial of what a cancel leaves pending, and the mark that an
// approved call starts (so a restart never runs it twice).
import type { GrantScope } from '../../src-shared/grants';
import type { JobRecord } from '../db/repos/jobs';
import type { NewPackageRequest } from '../db/repos/package-requests';
import { type NewToolRequest, type ToolRequestRecord, toToolRequest } from '../db/repos/tool-requests';
import type { Store } from '../db/store';
import { currentJob, JobCommandError } from './refusal';
import { resumeAfterDecision } from './wake';

/** Opens the cards of a run that waits for approval (its job parks in the same transaction: run-outcomes.ts). */
export function openRequests(
  store: Store,
  job: Pick<JobRecord, 'id' | 'taskId'>,
  tools: readonly NewToolRequest[],
  packages: readonly NewPackageRequest[],
  now = Date.now(),
): void {
  for (const r of tools) {
    const request = toToolRequest(store.toolRequests.insert(job.taskId, job.id, r, now));
    store.publish({ type: 'tool_request.changed', taskId: job.taskId, jobId: job.id, request });
  }
  for (const r of packages) {
    const request = store.packageRequests.insert(job.taskId, job.id, r, now);
    store.publish({ type: 'package_request.changed', taskId: job.taskId, jobId: job.id, request });
  }
}

export interface Decision {
  taskId: string;
  requestId: string;
  approved: boolean;
  /** The person's reason for a denial. */
  reason?: string | null;
}

interface Decidable {
  taskId: string;
  jobId: string;
  status: string;
}

/** The parked job a pending request of `taskId` belongs to; anything else is refused, with nothing written. */
function decidableJob(store: Store, command: string, request: Decidable | undefined, d: Decision): JobRecord {
  if (!request || request.taskId !== d.taskId)
    throw new JobCommandError(command, 'not_found', `request ${d.requestId} does not exist`);
  const job = currentJob(store, command, request.jobId);
  if (job.status === 'cancelled') throw new JobCommandError(command, 'job_not_waiting', `job ${job.id} was cancelled`);
  if (request.status !== 'pending')
    throw new JobCommandError(command, 'already_decided', `request ${d.requestId} is already ${request.status}`);
  if (job.status !== 'waiting_human' || (job.waitReason !== 'tool_request' && job.waitReason !== 'package_request'))
    throw new JobCommandError(
      command,
      'job_not_waiting',
      `job ${job.id} is ${job.status}${job.waitReason ? ` (${job.waitReason})` : ''}, not waiting for this decision`,
    );
  return job;
}

/**
 * A person decides a tool request: `grant` (called once the request is known to be decidable) gives what an approval
 * "for this task" grants, stored with the decision; it may throw to refuse the decision, and nothing is written.
 */
export function decideToolRequest(
  store: Store,
  decision: Decision & { scope: 'once' | 'task'; grant?: (request: ToolRequestRecord) => GrantScope | null },
) {
  return store.transact(() => {
    const record = store.toolRequests.get(decision.requestId);
    const job = decidableJob(store, 'decideToolRequest', record, decision);
    const { approved } = decision;
    const grant =
      approved && decision.scope === 'task' ? (decision.grant?.(record as ToolRequestRecord) ?? null) : null;
    const decided = store.toolRequests.decide(
      decision.requestId,
      approved ? 'approved' : 'denied',
      approved ? decision.scope : null,
      Date.now(),
      approved ? null : (decision.reason ?? null),
    );
    if (!decided) throw new Error(`tool request ${decision.requestId} changed inside its own transaction`);
    if (grant) store.taskGrants.insert(decision.taskId, decided.id, grant);
    const request = toToolRequest(decided);
    store.publish({ type: 'tool_request.changed', taskId: decision.taskId, jobId: job.id, request });
    resumeAfterDecision(store, job);
    return request;
  });
}

/** A person decides a package request. */
export function decidePackageRequest(store: Store, decision: Decision) {
  return store.transact(() => {
    const job = decidableJob(store, 'decidePackageRequest', store.packageRequests.get(decision.requestId), decision);
    const request = store.packageRequests.decide(
      decision.requestId,
      decision.approved ? 'approved' : 'denied',
      Date.now(),
      decision.approved ? null : (decision.reason ?? null),
    );
    if (!request) throw new Error(`package request ${decision.requestId} changed inside its own transaction`);
    store.publish({ type: 'package_request.changed', taskId: decision.taskId, jobId: job.id, request });
    resumeAfterDecision(store, job);
    return request;
  });
}

/** The requests a cancelled job leaves pending are denied, so no card waits for a job that will never run them. */
export function denyPendingRequests(store: Store, jobId: string): void {
  for (const r of store.toolRequests.listForJob(jobId)) {
    const denied = r.status === 'pending' && store.toolRequests.decide(r.id, 'denied', null);
    if (denied)
      store.publish({ type: 'tool_request.changed', taskId: r.taskId, jobId, request: toToolRequest(denied) });
  }
  for (const r of store.packageRequests.listForJob(jobId)) {
    const denied = r.status === 'pending' && store.packageRequests.decide(r.id, 'denied');
    if (denied) store.publish({ type: 'package_request.changed', taskId: r.taskId, jobId, request: denied });
  }
}

/**
 * markCallStarted: the approved call of a tool or package request starts now (committed on return). True for the one
 * caller that may run it; false when it started before (a run a restart interrupted) or is not approved.
 */
export function markCallStarted(store: Store, request: { kind: 'tool' | 'package'; id: string }): boolean {
  return request.kind === 'tool'
    ? store.toolRequests.markStarted(request.id)
    : store.packageRequests.markStarted(request.id);
}

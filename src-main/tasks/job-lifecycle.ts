// Job and comment writes shared by task operations and the Worker: every change is published as an event, cancels
// reach the whole job tree, and a parent waiting for subtasks is woken when its last child ends.
import { isTerminal, type JobStatus } from '../../src-shared/entities';
import type { NewComment } from '../db/repos/comments';
import { type JobPatch, type JobRecord, toJob } from '../db/repos/jobs';
import { toToolRequest } from '../db/repos/tool-requests';
import type { Store } from '../db/store';

export function changeJob(
  store: Store,
  job: Pick<JobRecord, 'id' | 'status'>,
  to: JobStatus,
  patch: JobPatch = {},
  owner: string | null = null,
): JobRecord | undefined {
  const changed = store.jobs.transition(job.id, job.status, to, patch, { owner });
  if (!changed) return undefined;
  store.publish({ type: 'job.changed', taskId: changed.taskId, jobId: changed.id, job: toJob(changed) });
  if (isTerminal(to)) wakeParentIfDone(store, changed);
  return changed;
}

export function insertJob(store: Store, job: Parameters<Store['jobs']['insert']>[0]): JobRecord {
  const created = store.jobs.insert(job);
  store.publish({ type: 'job.changed', taskId: created.taskId, jobId: created.id, job: toJob(created) });
  return created;
}

export function postComment(store: Store, comment: NewComment) {
  const created = store.comments.insert(comment);
  store.publish({ type: 'comment.created', taskId: created.taskId, jobId: created.jobId, comment: created });
  return created;
}

/**
 * Cancels a non-terminal job, denies its pending requests and cancels every open descendant job.
 * Returns the cancelled job, or undefined when it was already terminal or changed under us.
 */
export function cancelJobTree(store: Store, job: JobRecord): JobRecord | undefined {
  return store.transact(() => {
    if (isTerminal(job.status)) return undefined;
    const cancelled = changeJob(store, job, 'cancelled');
    if (!cancelled) return undefined;
    denyPendingRequests(store, job.id);
    for (const child of store.jobs.openDescendants(job.id)) {
      changeJob(store, child, 'cancelled');
      denyPendingRequests(store, child.id);
    }
    return cancelled;
  });
}

function denyPendingRequests(store: Store, jobId: string): void {
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

/** When `child` ended and its parent waits for subtasks with none left open, the parent is queued (Invoke Notify). */
export function wakeParentIfDone(store: Store, child: Pick<JobRecord, 'parentJobId'>): void {
  if (!child.parentJobId) return;
  const parent = store.jobs.get(child.parentJobId);
  if (parent?.status !== 'waiting_subtasks') return;
  if (store.jobs.openChildCount(parent.id) > 0) return;
  changeJob(store, parent, 'queued', { pendingInvoke: 'Notify' });
}

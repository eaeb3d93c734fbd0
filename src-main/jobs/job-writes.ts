// The write primitives the job commands are made of: a checked compare-and-set status change, a new job, a comment,
// each published as an event. Only files of jobs/ import this (test-support/import-boundaries.ts keeps it so): a
// caller elsewhere says what happened through a command, and the command decides the state.
import { isTerminal, type JobStatus } from '../../src-shared/entities';
import type { NewComment } from '../db/repos/comments';
import { type JobPatch, type JobRecord, type NewJob, toJob } from '../db/repos/jobs';
import type { Store } from '../db/store';
import { assertTransition } from './job-state';

/** The generic patch: checked against the state machine, CAS on the status (and on `owner`), published. */
export function changeJob(
  store: Store,
  job: Pick<JobRecord, 'id' | 'status'>,
  to: JobStatus,
  patch: JobPatch = {},
  owner: string | null = null,
): JobRecord | undefined {
  assertTransition(job.status, to);
  const changed = store.jobs.transition(job.id, job.status, to, patch, { owner });
  if (!changed) return undefined;
  publishJob(store, changed);
  if (isTerminal(to)) wakeParentIfDone(store, changed);
  return changed;
}

export function publishJob(store: Store, job: JobRecord): void {
  store.publish({ type: 'job.changed', taskId: job.taskId, jobId: job.id, job: toJob(job) });
}

export function insertJob(store: Store, job: NewJob): JobRecord {
  const created = store.jobs.insert(job);
  publishJob(store, created);
  return created;
}

export function postComment(store: Store, comment: NewComment) {
  const created = store.comments.insert(comment);
  store.publish({ type: 'comment.created', taskId: created.taskId, jobId: created.jobId, comment: created });
  return created;
}

/** When `child` ended and its parent waits for subtasks with none left open, the parent is queued (Invoke Notify). */
export function wakeParentIfDone(store: Store, child: Pick<JobRecord, 'parentJobId'>): void {
  if (!child.parentJobId) return;
  const parent = store.jobs.get(child.parentJobId);
  if (parent?.status !== 'waiting_subtasks') return;
  if (store.jobs.openChildCount(parent.id) > 0) return;
  changeJob(store, parent, 'queued', { pendingInvoke: 'Notify' });
}

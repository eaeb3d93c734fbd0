// Job and comment writes shared by task operations and the Worker: every change is published as an event, cancels
// reach the whole job tree, and a parent waiting for subtasks is woken when its last child ends.
import {
  type AttachmentInfo,
  type CommentAuthor,
  isTerminal,
  type JobStatus,
  type Task,
} from '../../src-shared/entities';
import type { InvokeKind } from '../../src-shared/events';
import type { NewComment } from '../db/repos/comments';
import { type JobPatch, type JobRecord, toJob } from '../db/repos/jobs';
import type { NewTask } from '../db/repos/tasks';
import { toToolRequest } from '../db/repos/tool-requests';
import type { Store } from '../db/store';
import { assertTransition } from './job-state';

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

export interface NewTaskWithJob extends Omit<NewTask, 'createdAt'> {
  parentJobId: string | null;
  invoke: InvokeKind;
  /** Who gave the instruction: the user, or an agent creating a subtask. */
  author: CommentAuthor;
  /** The files attached to the instruction (already written to the task's runtime dir). */
  attachments?: readonly AttachmentInfo[];
}

/** A task, its instruction comment and its queued job, in one transaction (task creation and subtasks). */
export function insertTaskWithJob(store: Store, input: NewTaskWithJob): { task: Task; job: JobRecord } {
  const { parentJobId, invoke, author, attachments, ...task } = input;
  return store.transact(() => {
    store.tasks.insert({ ...task, createdAt: Date.now() });
    const job = insertJob(store, {
      taskId: task.id,
      pieceId: task.pieceId,
      profile: task.profile,
      pendingInvoke: invoke,
      parentJobId,
    });
    postComment(store, {
      taskId: task.id,
      jobId: job.id,
      author,
      kind: 'instruction',
      body: task.instruction,
      attachments,
    });
    const created = store.tasks.get(task.id);
    if (!created) throw new Error(`task ${task.id} vanished inside its own transaction`);
    store.publish({ type: 'task.created', taskId: task.id, jobId: job.id, task: created });
    return { task: created, job };
  });
}

export function titleFrom(instruction: string): string {
  const line = instruction.trim().split('\n')[0] as string;
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
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
    const children = store.jobs.openDescendants(job.id);
    for (const child of children) {
      changeJob(store, child, 'cancelled');
      denyPendingRequests(store, child.id);
    }
    const also = children.length > 0 ? ` ${children.length} subtask job(s) cancelled with it.` : '';
    postComment(store, {
      taskId: job.taskId,
      jobId: job.id,
      author: 'system',
      kind: 'comment',
      body: `Cancelled.${also}`,
      notice: { code: 'cancelled', subtasks: children.length },
    });
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

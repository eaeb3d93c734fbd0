// Commands that open and close whole jobs: a task with its first job (task creation, subtasks, a fork), a cancel that
// reaches the whole job tree, the parents of deleted subtasks, and the system's notes in a task.
import {
  type AttachmentInfo,
  type CommentAuthor,
  type CommentNotice,
  isTerminal,
  type Task,
} from '../../src-shared/entities';
import type { InvokeKind } from '../../src-shared/events';
import type { JobRecord } from '../db/repos/jobs';
import type { NewTask } from '../db/repos/tasks';
import type { Store } from '../db/store';
import { changeJob, insertJob, postComment, wakeParentIfDone } from './job-writes';
import { denyPendingRequests } from './requests';

export interface NewTaskWithJob extends Omit<NewTask, 'createdAt'> {
  parentJobId: string | null;
  invoke: InvokeKind;
  /** Who gave the instruction: the user, or an agent creating a subtask. */
  author: CommentAuthor;
  /** The files attached to the instruction (already written to the task's runtime dir). */
  attachments?: readonly AttachmentInfo[];
}

/** openTask: a task, its instruction comment and its queued job, in one transaction (task creation and subtasks). */
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
 * cancel: a non-terminal job is cancelled, its pending requests denied and every open descendant job cancelled.
 * Returns the cancelled job, or undefined when it was already terminal or changed under us (cancel is idempotent).
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

/** The jobs of deleted subtasks are gone: a parent outside them that waited for them goes on (Invoke Notify). */
export function subtasksDeleted(store: Store, jobs: readonly Pick<JobRecord, 'parentJobId'>[]): void {
  store.transact(() => {
    for (const job of jobs) wakeParentIfDone(store, job);
  });
}

/** A system comment in the task (a warning about an MCP server, checkpoints turned off): no job state changes. */
export function postNote(store: Store, note: { taskId: string; jobId: string; body: string; notice: CommentNotice }) {
  return store.transact(() => postComment(store, { ...note, author: 'system', kind: 'comment' }));
}

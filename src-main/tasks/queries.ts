// Read-side task operations: list, get, requests, transcript, usage.
import { CHAT_PAGE_SIZE, type OpOutput, type OpParsedInput, TASK_PAGE_DEFAULT } from '../../src-shared/contract';
import type { Task } from '../../src-shared/entities';
import { toJob } from '../db/repos/jobs';
import { toToolRequest } from '../db/repos/tool-requests';
import { replayTranscript } from '../engine/replay';
import { taskTranscript } from '../jobs/transcripts';
import { runtimeDir } from '../workspace/paths';
import type { TaskContext } from './context';
import { notFound } from './errors';
import { decodeTaskCursor, encodeTaskCursor } from './task-cursor';

export function requireTask(ctx: TaskContext, taskId: string): Task {
  const task = ctx.store.tasks.get(taskId);
  if (!task) throw notFound('task', taskId);
  return task;
}

/** The jobs of the task's work: its Reflection jobs are in its Activity and its lessons, never its latest job. */
const workJobs = (ctx: TaskContext, taskId: string) =>
  ctx.store.jobs
    .listForTask(taskId)
    .filter((j) => j.kind === 'run')
    .map(toJob);

/** A page of the task list (bridge-api.md: newest first, a default page without `limit`, `nextCursor` for the next). */
export function listTasks(ctx: TaskContext, input: OpParsedInput<'listTasks'>): OpOutput<'listTasks'> {
  const filters = { statuses: input.status, archived: input.archived, search: input.q, spaces: input.space };
  const after = input.cursor === undefined ? undefined : decodeTaskCursor(input.cursor, filters);
  const page = ctx.store.taskPages.page({ ...filters, after, limit: input.limit ?? TASK_PAGE_DEFAULT });
  return { tasks: page.tasks, nextCursor: page.next && encodeTaskCursor(page.next, filters) };
}

export function getTask(ctx: TaskContext, { taskId }: { taskId: string }): OpOutput<'getTask'> {
  const task = requireTask(ctx, taskId);
  return {
    task,
    jobs: workJobs(ctx, taskId),
    comments: ctx.store.comments.listForTask(taskId),
  };
}

/** getTask for the UI: the latest page of the chat only, so a task of 10,000 entries opens as fast as a short one. */
export function getTaskRecent(ctx: TaskContext, { taskId }: { taskId: string }): OpOutput<'getTaskRecent'> {
  const task = requireTask(ctx, taskId);
  return {
    task,
    jobs: workJobs(ctx, taskId),
    ...ctx.store.chatPages.latest(taskId, CHAT_PAGE_SIZE),
  };
}

/** The page before an item of the task's chat, as the feed asks for it when the reader nears its top. */
export function listChatBefore(
  ctx: TaskContext,
  { taskId, itemId }: { taskId: string; itemId: string },
): OpOutput<'listChatBefore'> {
  requireTask(ctx, taskId);
  const page = ctx.store.chatPages.before(taskId, itemId, CHAT_PAGE_SIZE);
  if (!page) throw notFound('chat item', `${itemId} of task ${taskId}`);
  return page;
}

export function listToolRequests(ctx: TaskContext, { taskId }: { taskId: string }): OpOutput<'listToolRequests'> {
  requireTask(ctx, taskId);
  return { requests: ctx.store.toolRequests.listForTask(taskId).map(toToolRequest) };
}

export function listPackageRequests(ctx: TaskContext, { taskId }: { taskId: string }): OpOutput<'listPackageRequests'> {
  requireTask(ctx, taskId);
  return { requests: ctx.store.packageRequests.listForTask(taskId) };
}

/**
 * The replayable conversation as a same-piece Continue would replay it (P6.29): every thread cleaned and concatenated
 * oldest first, keepTransitions on the last thread. A missing transcript or a torn last line is never an error.
 */
export function getTranscript(ctx: TaskContext, { taskId }: { taskId: string }): OpOutput<'getTranscript'> {
  requireTask(ctx, taskId);
  const text = taskTranscript(ctx.store, runtimeDir(ctx.dataDir, taskId), taskId).read();
  const entries: Record<string, unknown>[] = replayTranscript(text, { keepTransitions: true });
  return { entries };
}

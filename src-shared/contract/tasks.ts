// Tasks and their comments: create (or run to the end, for another agent), list, read, page through comments, comment,
// continue, cancel, and the task's transcript and events.
import { z } from 'zod';
import {
  ATTACHMENT_NAME_MAX_CHARS,
  attachmentListProblem,
  base64Bytes,
  describeAttachmentProblem,
} from '../attachments';
import { AttachmentInfo, ChatStep, Comment, Job, JobStatus, Task } from '../entities';
import { MaestroEvent } from '../events';
import { Id, NonBlank, op, QueryBool, QueryInt, QueryList, taskRef } from './operation';

/** One file's shape; what it may be (name, type, size, and the list's count and total) is attachments.ts's rule. */
export const Attachment = z
  .object({
    name: z.string(),
    mediaType: z.string().max(255),
    data: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64'),
  })
  .strict();

export const Attachments = z.array(Attachment).superRefine((list, ctx) => {
  const found = attachmentListProblem(list.map((a) => ({ ...a, bytes: base64Bytes(a.data) })));
  if (found) ctx.addIssue({ code: 'custom', path: [found.index], message: describeAttachmentProblem(found.problem) });
});

/** Tasks per page of listTasks when the caller names no limit, and the most it may name (bridge-api.md: ≤ 100). */
export const TASK_PAGE_DEFAULT = 100;
export const TASK_PAGE_MAX = 200;

/** Items (comments and steps together) per page of getTaskRecent and listChatBefore. */
export const CHAT_PAGE_SIZE = 200;
const OlderCount = z.number().int().min(0);

const createTaskShape = {
  instruction: NonBlank(100_000),
  title: NonBlank(200).optional(),
  pieceId: Id.optional(),
  workspacePath: z.string().min(1).max(4096).optional(),
  /** A space instead of a folder: the task works in the space's folder (and runs its pinned piece). */
  spaceId: Id.optional(),
  profile: Id.optional(),
  attachments: Attachments.optional(),
};

export const taskOperations = {
  createTask: op({
    method: 'POST',
    path: '/tasks',
    status: 201,
    input: z.object(createTaskShape).strict(),
    output: z.object({ task: Task, job: Job }),
  }),
  /**
   * For another agent (A2A, P10.02): creates the task like POST /tasks and answers when its job has ended — or waits
   * for a person (`settled`, with the wait reason on the job), or after `waitMs` (`settled: false`, still going).
   */
  runTask: op({
    method: 'POST',
    path: '/tasks/run',
    status: 200,
    input: z.object({ ...createTaskShape, waitMs: z.number().int().min(1).max(600_000).default(300_000) }).strict(),
    output: z.object({ task: Task, job: Job, settled: z.boolean() }),
  }),
  /**
   * A page of the tasks, newest first (issue 28 point 3): `cursor` is the `nextCursor` of the page before (opaque; one
   * of another version or of other filters is refused with the reason), null on the last page. Filters: the latest
   * job's status (one or several), archived or not (both when absent), `q`, words in the title or instruction, and
   * `space`, the spaces (by id) whose tasks to list.
   */
  listTasks: op({
    method: 'GET',
    path: '/tasks',
    status: 200,
    input: z
      .object({
        limit: QueryInt(1, TASK_PAGE_MAX).optional(),
        cursor: z.string().min(1).max(200).optional(),
        status: QueryList(JobStatus, 8).optional(),
        archived: QueryBool.optional(),
        q: z.string().trim().min(1, 'must not be blank').max(200).optional(),
        space: QueryList(Id, 100).optional(),
      })
      .strict(),
    output: z.object({ tasks: z.array(Task), nextCursor: z.string().nullable() }),
  }),
  getTask: op({
    method: 'GET',
    path: '/tasks/:taskId',
    status: 200,
    input: taskRef,
    output: z.object({ task: Task, jobs: z.array(Job), comments: z.array(Comment) }),
  }),
  /**
   * The task and its jobs with the latest page of its chat, for the UI: comments and steps (the recorded AgentTurns,
   * with their tool calls and results), CHAT_PAGE_SIZE of them together, and the count of older ones.
   */
  getTaskRecent: op({
    method: 'GET',
    path: '/tasks/:taskId/recent',
    status: 200,
    input: taskRef,
    output: z.object({
      task: Task,
      jobs: z.array(Job),
      comments: z.array(Comment),
      steps: z.array(ChatStep),
      olderCount: OlderCount,
    }),
  }),
  /** The page of the chat just before one of its items (a comment's id or a step's), oldest first. */
  listChatBefore: op({
    method: 'GET',
    path: '/tasks/:taskId/chat/before/:itemId',
    status: 200,
    input: z.object({ taskId: Id, itemId: z.string().min(1).max(200) }).strict(),
    output: z.object({ comments: z.array(Comment), steps: z.array(ChatStep), olderCount: OlderCount }),
  }),
  addComment: op({
    method: 'POST',
    path: '/tasks/:taskId/comments',
    status: 201,
    input: z
      .object({
        taskId: Id,
        body: NonBlank(100_000),
        /** The LLM profile of the job this comment starts (a follow-up or an answer); ignored by one it joins. */
        profile: Id.optional(),
      })
      .strict(),
    output: z.object({
      comment: Comment,
      disposition: z.enum(['interjection', 'reused_job', 'followup_job']),
      job: Job.optional(),
    }),
  }),
  continueTask: op({
    method: 'POST',
    path: '/tasks/:taskId/continue',
    status: 201,
    input: z.object({ taskId: Id, instruction: NonBlank(100_000).optional(), pieceId: Id.optional() }).strict(),
    output: z.object({ job: Job }),
  }),
  cancelTask: op({
    method: 'POST',
    path: '/tasks/:taskId/cancel',
    status: 200,
    input: taskRef,
    output: z.object({ job: Job }),
  }),
  getTranscript: op({
    method: 'GET',
    path: '/tasks/:taskId/transcript',
    status: 200,
    input: taskRef,
    output: z.object({ entries: z.array(z.record(z.string(), z.unknown())) }),
  }),
  listTaskEvents: op({
    method: 'GET',
    path: '/tasks/:taskId/events',
    status: 200,
    input: taskRef,
    output: z.object({ events: z.array(MaestroEvent) }),
  }),
  /** The latest job, waiting to retry, tries again now instead of at its nextRetryAt; 409 when it is not waiting. */
  retryNow: op({
    method: 'POST',
    path: '/tasks/:taskId/retry-now',
    status: 200,
    input: taskRef,
    output: z.object({ job: Job }),
  }),
  renameTask: op({
    method: 'PATCH',
    path: '/tasks/:taskId',
    status: 200,
    input: z.object({ taskId: Id, title: NonBlank(200) }).strict(),
    output: z.object({ task: Task }),
  }),
  /** Archives (or brings back) the task and its subtasks: hidden from the list until "Show archived". */
  archiveTask: op({
    method: 'POST',
    path: '/tasks/:taskId/archive',
    status: 200,
    input: z.object({ taskId: Id, archived: z.boolean() }).strict(),
    output: z.object({ tasks: z.array(Task) }),
  }),
  /**
   * Deletes the task and its subtasks with everything that hangs on them (jobs, comments, requests, the log, events,
   * runtime files); refused (409) while one of their jobs runs.
   */
  deleteTask: op({
    method: 'DELETE',
    path: '/tasks/:taskId',
    status: 200,
    input: taskRef,
    output: z.object({ deletedTaskIds: z.array(z.string()) }),
  }),
  /**
   * One file attached to the task's instruction, with its bytes (base64), for the chat's image thumbnail; the
   * instruction comment lists the files (name, type, size) without them. 404 for a file the task was not given.
   */
  getTaskAttachment: op({
    method: 'GET',
    path: '/tasks/:taskId/attachments/:name',
    status: 200,
    input: z.object({ taskId: Id, name: z.string().min(1).max(ATTACHMENT_NAME_MAX_CHARS) }).strict(),
    output: AttachmentInfo.extend({ data: z.string() }),
  }),
};

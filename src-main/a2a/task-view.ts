// An Agent2Agent task as the DB has it: its state from the job it is on now, its history from the comments of its
// jobs, the result as its artifact. Read fresh every time (the DB is the truth), so tasks/get after a restart, or after
// a person answered in the app, says what happened.
import { type Artifact, type Message, type Part, Role, type Task, TaskState, taskStateToJSON } from '@a2a-js/sdk';
import { assertNever } from '../../src-shared/assert-never';
import type { Comment, CommentKind, Job } from '../../src-shared/entities';
import type { A2aTaskRecord } from '../db/repos/a2a-tasks';
import type { JobRecord } from '../db/repos/jobs';
import type { Store } from '../db/store';

export const RESULT_MEDIA_TYPE = 'text/markdown';

/** The A2A state of a job: a person's wait is input-required, an MCP token's auth-required. */
export function a2aState(job: Pick<Job, 'status' | 'waitReason'>): TaskState {
  switch (job.status) {
    case 'queued':
      return TaskState.TASK_STATE_SUBMITTED;
    case 'running':
    case 'retry':
    case 'waiting_subtasks':
      return TaskState.TASK_STATE_WORKING;
    case 'waiting_human':
      return job.waitReason === 'mcp_auth_required'
        ? TaskState.TASK_STATE_AUTH_REQUIRED
        : TaskState.TASK_STATE_INPUT_REQUIRED;
    case 'succeeded':
      return TaskState.TASK_STATE_COMPLETED;
    case 'failed':
      return TaskState.TASK_STATE_FAILED;
    case 'cancelled':
      return TaskState.TASK_STATE_CANCELED;
    default:
      return assertNever(job.status, 'job status');
  }
}

/** A state as A2A words it (`input-required`, `canceled`): the SDK's name of it, shortened. */
export const stateName = (state: TaskState | undefined): string =>
  taskStateToJSON(state ?? TaskState.TASK_STATE_UNSPECIFIED)
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replaceAll('_', '-');

export const isFinal = (state: TaskState) =>
  state === TaskState.TASK_STATE_COMPLETED ||
  state === TaskState.TASK_STATE_FAILED ||
  state === TaskState.TASK_STATE_CANCELED;

export const textPart = (text: string, mediaType = 'text/plain'): Part => ({
  content: { $case: 'text', value: text },
  mediaType,
  filename: '',
  metadata: undefined,
});

/**
 * The jobs of an A2A task, oldest first: its first job, and after a job that ended because its question was answered
 * (in A2A or in the app), the job that took the answer. The last is the one it is on now.
 */
export function a2aJobs(store: Store, record: A2aTaskRecord): JobRecord[] {
  // A Reflection job (P2.08) is no step of the conversation: it never takes an answer.
  const all = store.jobs.listForTask(record.taskId).filter((j) => j.kind === 'run');
  const start = all.findIndex((j) => j.id === record.firstJobId);
  if (start < 0) return [];
  const chain = [all[start] as JobRecord];
  for (let i = start + 1; i < all.length; i++) {
    const last = chain[chain.length - 1] as JobRecord;
    const next = all[i] as JobRecord;
    const answered = last.status === 'succeeded' && store.comments.listForJob(next.id).some((c) => c.kind === 'answer');
    if (!answered) break;
    chain.push(next);
  }
  return chain;
}

const FROM_CALLER: readonly CommentKind[] = ['instruction', 'comment', 'interjection', 'answer', 'handoff'];

function toMessage(record: A2aTaskRecord, comment: Comment, messageIds: Map<string, string>): Message {
  return {
    messageId: messageIds.get(comment.id) ?? comment.id,
    contextId: record.contextId,
    taskId: record.id,
    role: FROM_CALLER.includes(comment.kind) && comment.author !== 'system' ? Role.ROLE_USER : Role.ROLE_AGENT,
    parts: [textPart(comment.body)],
    metadata: { maestroCommentKind: comment.kind },
    extensions: [],
    referenceTaskIds: [],
  };
}

/** What the task waits for, in words: the question, the requests a person decides, or the notice the job left. */
function waitText(store: Store, job: JobRecord, comments: Comment[]): string | null {
  if (job.status === 'failed') return job.error;
  if (job.status !== 'waiting_human') return null;
  if (job.waitReason === 'tool_request' || job.waitReason === 'package_request') {
    const tools = store.toolRequests.listForJob(job.id).filter((r) => r.status === 'pending');
    const packages = store.packageRequests.listForJob(job.id).filter((r) => r.status === 'pending');
    const asks = [
      ...tools.map((r) => r.summary),
      ...packages.map((r) => `install ${r.manager} package ${r.name}${r.version ? `@${r.version}` : ''}: ${r.reason}`),
    ];
    return `Waiting for a person to decide in MAESTRO:\n${asks.map((a) => `- ${a}`).join('\n')}`;
  }
  const last = comments.filter((c) => c.jobId === job.id && c.author !== 'user').at(-1);
  return last?.body ?? null;
}

export interface A2aTaskView {
  task: Task;
  /** The job the task is on now. */
  job: JobRecord;
}

/** The task as an A2A Task; undefined when its MAESTRO task or first job is gone. */
export function viewTask(store: Store, record: A2aTaskRecord): A2aTaskView | undefined {
  const jobs = a2aJobs(store, record);
  const job = jobs.at(-1);
  if (!job) return undefined;
  const jobIds = new Set(jobs.map((j) => j.id));
  const comments = store.comments.listForTask(record.taskId).filter((c) => c.jobId !== null && jobIds.has(c.jobId));
  const messageIds = store.a2aTasks.messageIds(record.taskId);
  const status = waitText(store, job, comments);
  const artifacts: Artifact[] =
    job.status === 'succeeded' && job.result !== null ? [resultArtifact(job.id, job.result)] : [];
  return {
    job,
    task: {
      id: record.id,
      contextId: record.contextId,
      status: {
        state: a2aState(job),
        message:
          status === null
            ? undefined
            : {
                messageId: `status-${job.id}-${job.updatedAt}`,
                contextId: record.contextId,
                taskId: record.id,
                role: Role.ROLE_AGENT,
                parts: [textPart(status)],
                metadata: undefined,
                extensions: [],
                referenceTaskIds: [],
              },
        timestamp: job.updatedAt,
      },
      artifacts,
      history: comments.map((c) => toMessage(record, c, messageIds)),
      metadata: { maestroTaskId: record.taskId, maestroJobId: job.id },
    },
  };
}

export const resultArtifact = (jobId: string, result: string): Artifact => ({
  artifactId: `result-${jobId}`,
  name: 'result',
  description: 'The answer of the MAESTRO job',
  parts: [textPart(result, RESULT_MEDIA_TYPE)],
  metadata: undefined,
  extensions: [],
});

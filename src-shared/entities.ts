// The records every transport carries: Task, Job, Comment, ToolRequest, PackageRequest (bridge-api.md "fields callers rely on").
import { z } from 'zod';

export const JOB_STATUSES = [
  'queued',
  'running',
  'waiting_human',
  'waiting_subtasks',
  'retry',
  'succeeded',
  'failed',
  'cancelled',
] as const;
export const JobStatus = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof JobStatus>;

export const WAIT_REASONS = ['ask', 'tool_request', 'package_request', 'mcp_auth_required', 'browser'] as const;
export const WaitReason = z.enum(WAIT_REASONS);
export type WaitReason = z.infer<typeof WaitReason>;

export const TERMINAL_STATUSES: readonly JobStatus[] = ['succeeded', 'failed', 'cancelled'];
export const isTerminal = (status: JobStatus): boolean => TERMINAL_STATUSES.includes(status);

/** A named persistent workspace folder reused across tasks; pinned to a piece, every task in it runs that piece. */
export const Space = z.object({
  id: z.string(),
  name: z.string(),
  folder: z.string(),
  pinnedPieceId: z.string().nullable(),
  createdAt: z.string(),
  taskCount: z.number().int(),
  /** When its newest task was created. */
  lastUsedAt: z.string().nullable(),
});
export type Space = z.infer<typeof Space>;

export const Task = z.object({
  id: z.string(),
  title: z.string(),
  instruction: z.string(),
  pieceId: z.string(),
  workspacePath: z.string(),
  profile: z.string().nullable(),
  parentTaskId: z.string().nullable(),
  createdAt: z.string(),
  /** When it was archived (hidden from the list until shown); null while it is not. */
  archivedAt: z.string().nullable(),
  /** The latest job's status. */
  status: JobStatus.nullable(),
});
export type Task = z.infer<typeof Task>;

export const Job = z.object({
  id: z.string(),
  taskId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  status: JobStatus,
  waitReason: WaitReason.nullable(),
  pieceId: z.string(),
  profile: z.string().nullable(),
  resumeMovement: z.string().nullable(),
  askCount: z.number().int(),
  attempt: z.number().int(),
  nextRetryAt: z.string().nullable(),
  continuedFromJobId: z.string().nullable(),
  parentJobId: z.string().nullable(),
  workerId: z.string().nullable(),
  heartbeatAt: z.string().nullable(),
  error: z.string().nullable(),
  result: z.string().nullable(),
});
export type Job = z.infer<typeof Job>;

export const COMMENT_AUTHORS = ['user', 'agent', 'system'] as const;
export const COMMENT_KINDS = [
  'instruction',
  'comment',
  'interjection',
  'question',
  'answer',
  'result',
  'handoff',
  'error',
] as const;
export const Comment = z.object({
  id: z.string(),
  taskId: z.string(),
  jobId: z.string().nullable(),
  author: z.enum(COMMENT_AUTHORS),
  kind: z.enum(COMMENT_KINDS),
  body: z.string(),
  createdAt: z.string(),
});
export type Comment = z.infer<typeof Comment>;
export type CommentKind = Comment['kind'];
export type CommentAuthor = Comment['author'];

export const REQUEST_STATUSES = ['pending', 'approved', 'denied'] as const;
export const RequestStatus = z.enum(REQUEST_STATUSES);
export type RequestStatus = z.infer<typeof RequestStatus>;

export const ToolRequest = z.object({
  id: z.string(),
  taskId: z.string(),
  jobId: z.string(),
  callId: z.string(),
  tool: z.string(),
  summary: z.string(),
  status: RequestStatus,
  scope: z.enum(['once', 'task']).nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  /** Why the person denied it, in their words (the model gets it); null without one. */
  denyReason: z.string().nullable(),
});
export type ToolRequest = z.infer<typeof ToolRequest>;

export const PackageRequest = z.object({
  id: z.string(),
  taskId: z.string(),
  jobId: z.string(),
  callId: z.string(),
  manager: z.enum(['npm', 'pip']),
  name: z.string(),
  version: z.string().nullable(),
  reason: z.string(),
  status: RequestStatus,
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  /** Why the person denied it, in their words (the model gets it); null without one. */
  denyReason: z.string().nullable(),
});
export type PackageRequest = z.infer<typeof PackageRequest>;

export const PieceSummary = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  startMovement: z.string(),
  movements: z.array(z.object({ name: z.string(), description: z.string() })),
  source: z.enum(['builtin', 'workspace']),
});
export type PieceSummary = z.infer<typeof PieceSummary>;

export const PieceLoadError = z.object({ file: z.string(), message: z.string() });
export type PieceLoadError = z.infer<typeof PieceLoadError>;

// The records every transport carries: Task, Job, Comment, ToolRequest, PackageRequest (bridge-api.md "fields callers rely on").
import { z } from 'zod';
import { GrantOptions } from './grants';

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

export const WAIT_REASONS = [
  'ask',
  'tool_request',
  'package_request',
  'mcp_auth_required',
  'browser',
  'settings',
] as const;
export const WaitReason = z.enum(WAIT_REASONS);
export type WaitReason = z.infer<typeof WaitReason>;

/**
 * What kind of failure a job's `error` is, so the UI says it in the person's words and points at the fix: the LLM
 * profile's key was refused (401/403), its server could not be reached, its model is unknown to the server, or the
 * profile does not exist; the model server kept failing or refused the request; the model's reply reached a limit of
 * its profile (bytes, one tool call's bytes, time); the conversation outgrew the model's
 * context; the model declined; the job ran past its deadline, reached its movement's iteration limit, repeated the
 * same call, or the model stopped answering with anything. `error` keeps the technical detail, in English.
 */
export const JOB_ERROR_CODES = [
  'profile_key_refused',
  'profile_unreachable',
  'profile_model_unknown',
  'profile_missing',
  'llm_failed',
  'llm_limit',
  'context_overflow',
  'model_refused',
  'deadline_exceeded',
  'iteration_limit',
  'tool_loop',
  'no_reply',
] as const;
export const JobErrorCode = z.enum(JOB_ERROR_CODES);

/** What a person can do about a failed job, said after the error in its error comment (the UI says it localized). */
export const WHAT_NOW =
  'To try again, send a comment (the next job resumes where this one stopped) or Continue the task.';
export type JobErrorCode = z.infer<typeof JobErrorCode>;

export const TERMINAL_STATUSES: readonly JobStatus[] = ['succeeded', 'failed', 'cancelled'];
export const isTerminal = (status: JobStatus): boolean => TERMINAL_STATUSES.includes(status);

/** A named persistent workspace folder reused across tasks; pinned to a piece, every task in it runs that piece. */
export const Space = z.object({
  id: z.string(),
  name: z.string(),
  folder: z.string(),
  pinnedPieceId: z.string().nullable(),
  /** When its tasks are reflected on by themselves (P2.08); absent: as the app's settings say. */
  reflection: z.enum(['failures', 'always', 'off']).optional(),
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
  /** The task this one was forked from, at its Send #send (its conversation up to that Send); null otherwise. */
  forkedFrom: z.object({ taskId: z.string(), send: z.number().int() }).nullable().optional(),
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
  /** The host that ran or runs the job (null while queued; absent from hosts before several could share a queue). */
  host: z.string().nullable().optional(),
  heartbeatAt: z.string().nullable(),
  error: z.string().nullable(),
  /** What kind of failure `error` is, when known (absent otherwise, and from hosts before it existed). */
  errorCode: JobErrorCode.optional(),
  result: z.string().nullable(),
  /**
   * `reflection` on a Reflection job (P2.08): it looks back on the task's record and is never the task's work or
   * status. Absent on the task's own jobs (`run`), as from hosts before it existed.
   */
  kind: z.enum(['run', 'reflection']).optional(),
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
/** A file attached to an instruction, as the chat shows it: its bytes are read on demand (getTaskAttachment). */
export const AttachmentInfo = z.object({ name: z.string(), mediaType: z.string(), bytes: z.number().int() });
export type AttachmentInfo = z.infer<typeof AttachmentInfo>;

/**
 * What a comment the system wrote (or wrote for the person) says, as a code and its parameters, so the UI words it in the person's language
 * (the comment's body keeps the English text, which the model and the API read).
 */
export const CommentNotice = z.discriminatedUnion('code', [
  /** The job was cancelled, and with it `subtasks` open subtask jobs. */
  z.object({ code: z.literal('cancelled'), subtasks: z.number().int().nonnegative() }),
  /** The agent handed a step to the person's browser; the job waits for their reply. */
  z.object({ code: z.literal('browser_step'), instruction: z.string(), url: z.string() }),
  /**
   * The job waits until a token for this MCP server is saved (or the person signs in to it); `callId`: the call the
   * server refused mid-run, which runs again when the job goes on.
   */
  z.object({ code: z.literal('mcp_auth'), server: z.string(), callId: z.string().optional() }),
  /** An MCP server failed (left out, crashed, not started again); the job goes on with the others. */
  z.object({ code: z.literal('mcp_warning'), server: z.string() }),
  /** The task's workspace has no checkpoints (said once per task): git is missing, or the folder is home or `/`. */
  z.object({ code: z.literal('checkpoints_off'), reason: z.enum(['no_git', 'home_or_root', 'unusable']) }),
  /** A checkpoint was not taken (too slow, or git failed); the step went on. */
  z.object({ code: z.literal('checkpoint_missed'), reason: z.enum(['slow', 'failed']) }),
  /** The workspace commit of a succeeded job (P2.21): made (`hash`), or skipped and why. */
  z.object({
    code: z.literal('workspace_commit'),
    hash: z.string().nullable(),
    files: z.number().int().nonnegative(),
    skipped: z.string().nullable(),
  }),
  /** A handoff the person made by pressing Continue without words: its body is the instruction written for the model. */
  z.object({ code: z.literal('continued') }),
]);
export type CommentNotice = z.infer<typeof CommentNotice>;

export const Comment = z.object({
  id: z.string(),
  taskId: z.string(),
  jobId: z.string().nullable(),
  author: z.enum(COMMENT_AUTHORS),
  kind: z.enum(COMMENT_KINDS),
  body: z.string(),
  createdAt: z.string(),
  /** A question's quick replies, offered by the agent (absent when it offered none). */
  choices: z.array(z.string()).optional(),
  /** An instruction's attached files (absent when it has none). */
  attachments: z.array(AttachmentInfo).optional(),
  /** A system comment's words as a code (absent for every other comment). */
  notice: CommentNotice.optional(),
});
export type Comment = z.infer<typeof Comment>;
export type CommentKind = Comment['kind'];
export type CommentAuthor = Comment['author'];

export const REQUEST_STATUSES = ['pending', 'approved', 'denied'] as const;
export const RequestStatus = z.enum(REQUEST_STATUSES);
export type RequestStatus = z.infer<typeof RequestStatus>;

/**
 * What an approval card shows of a request, for the UI to word in the person's language (`summary` says it in
 * English for every other reader): a command with its folder (relative to the workspace), time limit, the hosts it
 * may reach, and whether it runs outside the OS sandbox — because it asks to, or because there is none (`reason`).
 */
export const CommandDisplay = z.object({
  kind: z.literal('command'),
  command: z.string(),
  cwd: z.string(),
  timeoutMs: z.number(),
  network: z.array(z.string()),
  unsandboxed: z.object({ why: z.enum(['asked', 'no_sandbox']), reason: z.string() }).nullable(),
  /** A command on an SSH target of the policy: its name and `user@host:port` (the card says "on <target>"). */
  target: z.object({ name: z.string(), address: z.string() }).optional(),
});
export type CommandDisplay = z.infer<typeof CommandDisplay>;

/**
 * A write to a file that runs code outside the sandbox (`.git/config`, `.envrc`, …): the card says which file, why it
 * runs code, and that approving lets this one write through; `summary` keeps the diff.
 */
export const ProtectedFileDisplay = z.object({
  kind: z.literal('protected_file'),
  /** Workspace-relative, symlinks resolved. */
  path: z.string(),
  reason: z.string(),
});
export type ProtectedFileDisplay = z.infer<typeof ProtectedFileDisplay>;

export const ToolRequestDisplay = z.discriminatedUnion('kind', [CommandDisplay, ProtectedFileDisplay]);
export type ToolRequestDisplay = z.infer<typeof ToolRequestDisplay>;

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
  /** What the card shows, when the tool gives more than its summary. */
  display: ToolRequestDisplay.optional(),
  /** What "for this task" may grant: the call's target and, for a command, prefix rules that cover it. */
  grantOptions: GrantOptions.optional(),
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

export const UsageSums = z.object({
  llmCalls: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  cachedPromptTokens: z.number().int(),
});
export type UsageSums = z.infer<typeof UsageSums>;

/**
 * Why a call was not run, as data (its text answer, `Error: the user denied this call…`, is written for the model):
 * a person denied it (with their reason, if they gave one), or an Auto Prompter rule did (its label and reason).
 */
export const ToolCallDenial = z.discriminatedUnion('by', [
  z.object({ by: z.literal('person'), reason: z.string().nullable() }),
  z.object({ by: z.literal('rule'), rule: z.string(), reason: z.string() }),
]);
export type ToolCallDenial = z.infer<typeof ToolCallDenial>;

/**
 * A tool call's result as the log keeps it: its beginning (STEP_RESULT_CHARS) and its whole length, and what the
 * person sees in its place when the model's is shortened (a write's whole diff), if the tool gave that.
 */
/** An image a tool returned, shown in the chat: base64 bytes of a type every browser shows, size-limited by main. */
export const ToolResultImage = z.object({
  mimeType: z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']),
  data: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/),
});
export type ToolResultImage = z.infer<typeof ToolResultImage>;

export const ToolCallResult = z.object({
  ok: z.boolean(),
  content: z.string(),
  chars: z.number().int(),
  display: z.string().optional(),
  /** The images the tool returned (an MCP tool's), for the person: the text names them only. */
  images: z.array(ToolResultImage).optional(),
  /** Set when the call was not run because it was denied: the UI words it from this, never from `content`. */
  denial: ToolCallDenial.optional(),
});
export type ToolCallResult = z.infer<typeof ToolCallResult>;

/**
 * One AgentTurn of a task as the chat shows it, read from the conversation log: what the agent wrote and thought, the
 * tool calls it made with their results once answered, the movement it ran in, its LlmCalls (retries included) and
 * their usage. `depth` > 0: a delegated sub-agent's turn, shown inside the delegate call before it.
 */
export const ChatStep = z.object({
  /** `step:<seq>`: unique among a task's comments and steps. */
  id: z.string(),
  seq: z.number().int(),
  taskId: z.string(),
  jobId: z.string(),
  createdAt: z.string(),
  movement: z.string().nullable(),
  depth: z.number().int().min(0),
  text: z.string(),
  reasoning: z.string(),
  toolCalls: z.array(
    z.object({ id: z.string(), name: z.string(), arguments: z.string(), result: ToolCallResult.nullable() }),
  ),
  /** Why the generation failed, when it did (after its retries). */
  error: z.string().nullable(),
  usage: UsageSums,
});
export type ChatStep = z.infer<typeof ChatStep>;
export type StepToolCall = ChatStep['toolCalls'][number];

/** The kinds of the conversation log's entries (the Invoke/Turn/LlmCall vocabulary). */
export type LogKind = 'Invoke' | 'UserTurn' | 'AgentTurn' | 'LlmCall' | 'ToolTurn' | 'SystemTurn';

/** What an LlmCall log entry records of the call (its outcome, timing and tokens). */
export interface LlmCallRecord {
  attempt: number;
  outcome: string;
  latencyMs: number | null;
  ttftMs: number | null;
  promptTokens: number;
  completionTokens: number;
  cachedPromptTokens: number;
}

/** The prefix of a step's id; a comment's id never starts with it. */
export const STEP_ID_PREFIX = 'step:';
export const stepId = (seq: number) => `${STEP_ID_PREFIX}${seq}`;

/** The AgentTurn log entry's body, as the engine writes it (entries written before steps were recorded have none). */
export interface StepBody {
  movement: string | null;
  depth: number;
  text: string;
  reasoning: string;
  toolCalls: { id: string; name: string; arguments: string }[];
  error?: string;
}

/** How much of a tool result the log keeps (the transcript keeps it whole): a write's diff fits whole. */
export const STEP_RESULT_CHARS = 16_000;

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

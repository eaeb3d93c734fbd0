// The one contract: every operation the renderer or an outside caller can invoke, with its input schema, output schema
// and HTTP route. The preload facade, IPC handlers, HTTP routes and renderer client are all derived from this table.
import { z } from 'zod';
import { attachmentListProblem, base64Bytes, describeAttachmentProblem } from './attachments';
import { AutoPrompterSettings, AutoPrompterView } from './auto-prompter';
import { Comment, Job, PackageRequest, PieceLoadError, PieceSummary, Space, Task, ToolRequest } from './entities';
import { InvokeKind, MaestroEvent, UsageSums } from './events';
import type { OperationName } from './operation-names';
import { AppSettings, SettingsView } from './settings';
import { ToolPolicyView } from './tool-policy';

export { ATTACHMENT_MAX_BYTES, ATTACHMENTS_TOTAL_MAX_BYTES, base64Bytes, MIB } from './attachments';

const Id = z.string().min(1).max(200);
const NonBlank = (max: number) => z.string().trim().min(1, 'must not be empty').max(max);

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

export const Usage = UsageSums;
export type Usage = z.infer<typeof Usage>;

type Method = 'GET' | 'POST';

export interface OperationDef<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  method: Method;
  /** Path under /api/local; `:name` segments are taken from the input object. */
  path: string;
  /** HTTP status on success. */
  status: 200 | 201;
  input: I;
  output: O;
}

/** A profile name: also a path segment and a job's `profile` column. */
export const ProfileName = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
    'must be 1–64 letters, digits, ".", "_" or "-", starting with a letter or digit',
  );

/** An LLM profile as every output shows it: never the key, only whether there is one and its last 4 characters. */
export const ProfileView = z.object({
  name: z.string(),
  baseURL: z.string(),
  model: z.string(),
  contextWindow: z.number().int().optional(),
  temperature: z.number().optional(),
  parallelToolCalls: z.boolean().optional(),
  hasKey: z.boolean(),
  keyHint: z.string().nullable(),
  source: z.enum(['env', 'saved']),
  isDefault: z.boolean(),
});
export type ProfileView = z.infer<typeof ProfileView>;

/** An MCP server's name in a workspace's mcp.json: part of its tools' names and of its token's key. */
export const MCP_SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;

/** An MCP server of a workspace as every output shows it: never its token, only the token's status. */
export const McpServerView = z.object({
  name: z.string(),
  transport: z.enum(['stdio', 'http']),
  authRequired: z.boolean(),
  /** Whether a token can be saved for it (an HTTP server, or a stdio server with `auth.env`). */
  takesToken: z.boolean(),
  /** `rejected`: the server answered 401 the last time; `unreadable`: the saved token cannot be opened. */
  token: z.enum(['none', 'missing', 'saved', 'rejected', 'unreadable']),
});
export type McpServerView = z.infer<typeof McpServerView>;

/** A profiles file that could not be read: the env profile is still listed, the saved ones are not. */
export const ProfileLoadError = z.object({ file: z.string(), message: z.string() });

export const SaveProfileInput = z
  .object({
    name: ProfileName,
    baseURL: z
      .string()
      .trim()
      .max(2048)
      .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), 'must be an http:// or https:// URL'),
    model: NonBlank(200),
    /** Absent: keep the stored key. Empty: remove it. The value never appears in any output. */
    apiKey: z
      .string()
      .max(4096)
      .refine(
        (k) => [...k].every((c) => c.charCodeAt(0) > 0x20 && c.charCodeAt(0) !== 0x7f),
        'must not contain spaces or control characters',
      )
      .optional(),
    contextWindow: z.number().int().min(256).max(100_000_000).optional(),
    temperature: z.number().min(0).max(2).optional(),
    parallelToolCalls: z.boolean().optional(),
    makeDefault: z.boolean().optional(),
  })
  .strict();

/** Comments per page of getTaskRecent and listCommentsBefore. */
export const COMMENT_PAGE_SIZE = 200;
const OlderCount = z.number().int().min(0);

const op = <I extends z.ZodType, O extends z.ZodType>(def: OperationDef<I, O>) => def;
const empty = z.object({}).strict();
const taskRef = z.object({ taskId: Id }).strict();

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

export const contract = {
  health: op({
    method: 'GET',
    path: '/health',
    status: 200,
    input: empty,
    output: z.object({ ok: z.literal(true), version: z.string() }),
  }),
  listPieces: op({
    method: 'GET',
    path: '/pieces',
    status: 200,
    input: empty,
    output: z.object({ pieces: z.array(PieceSummary), errors: z.array(PieceLoadError) }),
  }),
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
  listTasks: op({
    method: 'GET',
    path: '/tasks',
    status: 200,
    input: empty,
    output: z.object({ tasks: z.array(Task) }),
  }),
  /** The spaces (persistent workspace folders), most recently used first. */
  listSpaces: op({
    method: 'GET',
    path: '/spaces',
    status: 200,
    input: empty,
    output: z.object({ spaces: z.array(Space) }),
  }),
  /** Renames a space, or pins it to a piece (null: unpinned); fields left out stay as they are. */
  updateSpace: op({
    method: 'POST',
    path: '/spaces/:spaceId',
    status: 200,
    input: z.object({ spaceId: Id, name: NonBlank(200).optional(), pinnedPieceId: Id.nullable().optional() }).strict(),
    output: z.object({ space: Space }),
  }),
  getTask: op({
    method: 'GET',
    path: '/tasks/:taskId',
    status: 200,
    input: taskRef,
    output: z.object({ task: Task, jobs: z.array(Job), comments: z.array(Comment) }),
  }),
  /** getTask with only the latest page of comments (COMMENT_PAGE_SIZE) and the count of older ones, for the UI. */
  getTaskRecent: op({
    method: 'GET',
    path: '/tasks/:taskId/recent',
    status: 200,
    input: taskRef,
    output: z.object({ task: Task, jobs: z.array(Job), comments: z.array(Comment), olderCount: OlderCount }),
  }),
  /** The page of comments just before one of the task's comments, oldest first, and the count of older ones. */
  listCommentsBefore: op({
    method: 'GET',
    path: '/tasks/:taskId/comments/before/:commentId',
    status: 200,
    input: z.object({ taskId: Id, commentId: Id }).strict(),
    output: z.object({ comments: z.array(Comment), olderCount: OlderCount }),
  }),
  addComment: op({
    method: 'POST',
    path: '/tasks/:taskId/comments',
    status: 201,
    input: z.object({ taskId: Id, body: NonBlank(100_000) }).strict(),
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
  listToolRequests: op({
    method: 'GET',
    path: '/tasks/:taskId/tool-requests',
    status: 200,
    input: taskRef,
    output: z.object({ requests: z.array(ToolRequest) }),
  }),
  decideToolRequest: op({
    method: 'POST',
    path: '/tasks/:taskId/tool-requests/:requestId/decide',
    status: 200,
    input: z
      .object({
        taskId: Id,
        requestId: Id,
        decision: z.enum(['approve', 'deny']),
        scope: z.enum(['once', 'task']).default('once'),
      })
      .strict(),
    output: z.object({ request: ToolRequest }),
  }),
  listPackageRequests: op({
    method: 'GET',
    path: '/tasks/:taskId/package-requests',
    status: 200,
    input: taskRef,
    output: z.object({ requests: z.array(PackageRequest) }),
  }),
  decidePackageRequest: op({
    method: 'POST',
    path: '/tasks/:taskId/package-requests/:requestId/decide',
    status: 200,
    input: z.object({ taskId: Id, requestId: Id, decision: z.enum(['approve', 'deny']) }).strict(),
    output: z.object({ request: PackageRequest }),
  }),
  getTranscript: op({
    method: 'GET',
    path: '/tasks/:taskId/transcript',
    status: 200,
    input: taskRef,
    output: z.object({ entries: z.array(z.record(z.string(), z.unknown())) }),
  }),
  getUsage: op({
    method: 'GET',
    path: '/tasks/:taskId/usage',
    status: 200,
    input: taskRef,
    output: z.object({
      total: Usage,
      jobs: z.array(z.object({ jobId: z.string(), usage: Usage })),
      invokes: z.array(
        z.object({
          seq: z.number().int(),
          kind: InvokeKind,
          jobId: z.string(),
          ts: z.string(),
          usage: Usage,
          agentTurns: z.array(
            z.object({
              seq: z.number().int(),
              usage: Usage,
              llmCalls: z.array(
                z.object({
                  seq: z.number().int(),
                  agentTurnSeq: z.number().int(),
                  attempt: z.number().int(),
                  outcome: z.string(),
                  latencyMs: z.number().nullable(),
                  ttftMs: z.number().nullable(),
                  usage: Usage,
                }),
              ),
            }),
          ),
        }),
      ),
    }),
  }),
  listTaskEvents: op({
    method: 'GET',
    path: '/tasks/:taskId/events',
    status: 200,
    input: taskRef,
    output: z.object({ events: z.array(MaestroEvent) }),
  }),
  listProfiles: op({
    method: 'GET',
    path: '/profiles',
    status: 200,
    input: empty,
    output: z.object({ profiles: z.array(ProfileView), errors: z.array(ProfileLoadError) }),
  }),
  saveProfile: op({
    method: 'POST',
    path: '/profiles',
    status: 201,
    input: SaveProfileInput,
    output: z.object({ profile: ProfileView }),
  }),
  deleteProfile: op({
    method: 'POST',
    path: '/profiles/:name/delete',
    status: 200,
    input: z.object({ name: ProfileName }).strict(),
    output: z.object({ ok: z.literal(true) }),
  }),
  testProfile: op({
    method: 'POST',
    path: '/profiles/:name/test',
    status: 200,
    input: z.object({ name: ProfileName }).strict(),
    output: z.object({ ok: z.boolean(), models: z.array(z.string()), error: z.string().optional() }),
  }),
  /** The default workspace's Auto Prompter rules (`.maestro/auto-prompter.json`), for Settings. */
  getAutoPrompter: op({
    method: 'GET',
    path: '/auto-prompter',
    status: 200,
    input: empty,
    output: AutoPrompterView,
  }),
  /** Replaces the default workspace's Auto Prompter rules; jobs already started keep theirs (P8.01). */
  saveAutoPrompter: op({
    method: 'POST',
    path: '/auto-prompter',
    status: 200,
    input: AutoPrompterSettings,
    output: AutoPrompterView,
  }),
  /** Workspace folders of recent tasks, newest first, for the CreateTaskDialog (ephemeral workspaces left out). */
  listRecentFolders: op({
    method: 'GET',
    path: '/workspaces/recent',
    status: 200,
    input: empty,
    output: z.object({ folders: z.array(z.object({ path: z.string(), lastUsedAt: z.string() })) }),
  }),
  /** The MCP servers of a workspace (its `.maestro/mcp.json`) and whether each has a token; `error`: a broken file. */
  listMcpServers: op({
    method: 'GET',
    path: '/mcp/servers/:workspacePath',
    status: 200,
    input: z.object({ workspacePath: z.string().min(1).max(4096) }).strict(),
    output: z.object({ servers: z.array(McpServerView), error: z.string().nullable() }),
  }),
  /** Saves (replaces) the token of a workspace's MCP server; jobs parked for it are queued again (P2.16). */
  saveMcpToken: op({
    method: 'POST',
    path: '/mcp/tokens',
    status: 200,
    input: z
      .object({
        workspacePath: z.string().min(1).max(4096),
        server: z.string().regex(MCP_SERVER_NAME, "must be an MCP server name of the workspace's mcp.json"),
        /** The token alone (no "Bearer "); it never appears in any output. */
        token: z
          .string()
          .min(1, 'must not be empty')
          .max(8192)
          .refine(
            (k) => [...k].every((c) => c.charCodeAt(0) > 0x20 && c.charCodeAt(0) !== 0x7f),
            'must not contain spaces or control characters (give the token alone, without "Bearer")',
          ),
      })
      .strict(),
    output: z.object({ server: McpServerView, resumed: z.array(Job) }),
  }),
  /**
   * A workspace's Tool Policy (`.maestro/policy.json`) for Settings. Only a space's folder or the host's default
   * workspace (404 otherwise), given as the absolute path listSpaces / getSettings answer, URL-encoded.
   */
  getToolPolicy: op({
    method: 'GET',
    path: '/tool-policy/:workspacePath',
    status: 200,
    input: z.object({ workspacePath: z.string().min(1).max(4096) }).strict(),
    output: ToolPolicyView,
  }),
  /**
   * Replaces a workspace's Tool Policy. `policy` is checked in main by the file's own schema (policy-schema.ts), so a
   * bad one is a 400 naming the field (`policy.tools.deny.0`) and the file stays as it was.
   */
  saveToolPolicy: op({
    method: 'POST',
    path: '/tool-policy',
    status: 200,
    input: z.object({ workspacePath: z.string().min(1).max(4096), policy: z.unknown() }).strict(),
    output: ToolPolicyView,
  }),
  /** The app's settings (`<dataDir>/settings.json`: OS notifications), the data dir and the default workspace. */
  getSettings: op({
    method: 'GET',
    path: '/settings',
    status: 200,
    input: empty,
    output: SettingsView,
  }),
  saveSettings: op({
    method: 'POST',
    path: '/settings',
    status: 200,
    input: AppSettings,
    output: SettingsView,
  }),
} as const satisfies { [N in OperationName]: OperationDef };

export type Contract = typeof contract;
export { IPC_EVENT_CHANNEL, ipcChannel, OPERATION_NAMES, type OperationName } from './operation-names';
export type OpInput<N extends OperationName> = z.input<Contract[N]['input']>;
export type OpParsedInput<N extends OperationName> = z.output<Contract[N]['input']>;
export type OpOutput<N extends OperationName> = z.infer<Contract[N]['output']>;

export const API_PREFIX = '/api/local';
export const EVENTS_PATH = '/events';

/** Path parameters named in a route, e.g. ['taskId', 'requestId']. */
export const pathParams = (path: string): string[] => [...path.matchAll(/:(\w+)/g)].map((m) => m[1] as string);

/** The typed API every transport offers: one async method per operation plus an event subscription. */
export type MaestroApi = { [N in OperationName]: (input: OpInput<N>) => Promise<OpOutput<N>> };

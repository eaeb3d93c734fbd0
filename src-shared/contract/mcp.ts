// A workspace's MCP servers with their token status (never a token) and how each is doing, saving a token for one of
// them, turning one off or on (a person's choice, kept with the accepted settings), checking one now, and adding or
// removing one as a person types it in Settings (written to the file and accepted as written).
import { z } from 'zod';
import { Job } from '../entities';
import { Id, op, taskRef } from './operation';

/** An MCP server's name in a workspace's mcp.json: part of its tools' names and of its token's key. */
export const MCP_SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;

const ServerName = z.string().regex(MCP_SERVER_NAME, "must be an MCP server name of the workspace's mcp.json");

/** An MCP server of a workspace as every output shows it: never its token, only the token's status. */
export const McpServerView = z.object({
  name: z.string(),
  transport: z.enum(['stdio', 'http', 'sse']),
  authRequired: z.boolean(),
  /** Whether a token can be saved for it (an HTTP server, or a stdio server with `auth.env`). */
  takesToken: z.boolean(),
  /** `rejected`: the server answered 401 the last time; `unreadable`: the saved token cannot be opened. */
  token: z.enum(['none', 'missing', 'saved', 'rejected', 'unreadable']),
  /** The token is an OAuth sign-in's (refreshed by the app), not a pasted one. */
  signedIn: z.boolean(),
  /** A sign-in started and waits for the person's browser to come back. */
  signingIn: z.boolean(),
  /** Off: jobs do not start it (`"disabled": true` in the file, or turned off in Settings). */
  enabled: z.boolean(),
  /** How it did the last time a job (or a check) started it in this run of the app; `unknown`: not since. */
  status: z.enum(['unknown', 'connected', 'failed']),
  /** Its tools as the model sees them (`mcp__<server>__<tool>`), when it last connected. */
  tools: z.array(z.string()),
  /** Why it last failed (start, crash, listing), naming it; null when it did not. */
  lastError: z.string().nullable(),
  /** When `status` was last set (ISO 8601); null: never. */
  checkedAt: z.string().nullable(),
});
export type McpServerView = z.infer<typeof McpServerView>;

/** A token a person gives for a server or an agent, alone (no "Bearer "). */
export const SecretToken = z
  .string()
  .min(1, 'must not be empty')
  .max(8192)
  .refine(
    (k) => [...k].every((c) => c.charCodeAt(0) > 0x20 && c.charCodeAt(0) !== 0x7f),
    'must not contain spaces or control characters (give the token alone, without "Bearer")',
  );

/** An environment variable's name, as the loader of mcp.json checks it. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const DraftName = z
  .string()
  .regex(MCP_SERVER_NAME, 'must be 1–32 letters, digits, "_" or "-", starting with a letter or digit');

/** A stdio server's program: an absolute path, or a name looked up on PATH (`npx`); a relative path would depend on where it starts. */
const Command = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(4096)
  .refine(
    (c) => c.startsWith('/') || /^[A-Za-z]:[\\/]/.test(c) || !/[\\/]/.test(c),
    'must be an absolute path or a program name on PATH (like npx), not a relative path',
  );

const EnvEntry = z.strictObject({
  name: z
    .string()
    .regex(ENV_NAME, 'must be an environment variable name: letters, digits and "_", not starting with a digit'),
  value: z.string().max(16_384),
  /** Kept sealed in the data dir as the server's token, the file holding only `${NAME}` (one per server). */
  secret: z.boolean().default(false),
});

/** A server as a person types it in Settings' "Add MCP server" form. */
export const McpServerDraft = z.discriminatedUnion('transport', [
  z
    .strictObject({
      transport: z.literal('stdio'),
      name: DraftName,
      command: Command,
      args: z.array(z.string().max(4096)).max(100).default([]),
      env: z.array(EnvEntry).max(100).default([]),
      /** Folders it may read although the OS sandbox hides them (its own install in /tmp or the home folder). */
      readable: z
        .array(
          z
            .string()
            .trim()
            .refine((f) => f.startsWith('/'), 'must be an absolute path'),
        )
        .max(20)
        .default([]),
    })
    .superRefine((draft, ctx) => {
      const seen = new Set<string>();
      let secrets = 0;
      draft.env.forEach((entry, i) => {
        if (seen.has(entry.name)) {
          ctx.addIssue({ code: 'custom', path: ['env', i, 'name'], message: `${entry.name} is given twice` });
        }
        seen.add(entry.name);
        if (entry.secret && entry.value === '') {
          ctx.addIssue({ code: 'custom', path: ['env', i, 'value'], message: 'a secret must not be empty' });
        }
        if (entry.secret && ++secrets > 1) {
          ctx.addIssue({
            code: 'custom',
            path: ['env', i, 'secret'],
            message: 'only one value per server can be kept as its secret',
          });
        }
      });
    }),
  z.strictObject({
    transport: z.literal('http'),
    name: DraftName,
    url: z
      .string()
      .trim()
      .max(4096)
      .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), 'must be an http:// or https:// URL'),
  }),
]);
export type McpServerDraft = z.input<typeof McpServerDraft>;

/**
 * One field of the form an MCP server asks a person to fill in (elicitation): flat, of a primitive type. `options`: the
 * values a choice (`choice`) or a multiple choice (`multi`) takes, with their titles.
 */
export const McpPromptField = z.object({
  name: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  kind: z.enum(['string', 'number', 'integer', 'boolean', 'choice', 'multi']),
  required: z.boolean(),
  /** A string's format (`email`, `uri`, `date`, `date-time`), when it names one. */
  format: z.string().nullable(),
  options: z.array(z.object({ value: z.string(), title: z.string() })),
  default: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]).nullable(),
  /** A number's bounds, or a string's (length) or a multiple choice's (count). */
  min: z.number().nullable(),
  max: z.number().nullable(),
});
export type McpPromptField = z.infer<typeof McpPromptField>;

const PromptBase = {
  id: z.string(),
  taskId: z.string(),
  jobId: z.string(),
  server: z.string(),
  createdAt: z.string(),
  /** When the server gets "cancel" (elicitation) or a refusal (sampling) if no one answered. */
  expiresAt: z.string(),
};

/**
 * What an MCP server asks of the person while one of its tool calls runs (the job waits in place for it): a form to
 * fill in (`elicit`: the server's message and fields), or leave to ask the task's model (`sample`: what it would send).
 */
export const McpPrompt = z.discriminatedUnion('kind', [
  z.object({ ...PromptBase, kind: z.literal('elicit'), message: z.string(), fields: z.array(McpPromptField) }),
  z.object({
    ...PromptBase,
    kind: z.literal('sample'),
    /** The messages the server would send to the model, as text (images named, not shown). */
    summary: z.string(),
    /** The LLM profile that would answer (the task's). */
    profile: z.string(),
    maxTokens: z.number().int(),
  }),
]);
export type McpPrompt = z.infer<typeof McpPrompt>;

/** A form's answer: each field's value by name. */
export const McpPromptContent = z.record(
  z.string(),
  z.union([z.string().max(10_000), z.number(), z.boolean(), z.array(z.string().max(1000)).max(100)]),
);

export const mcpOperations = {
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
        server: ServerName,
        /** The token alone (no "Bearer "); it never appears in any output. */
        token: SecretToken,
      })
      .strict(),
    output: z.object({ server: McpServerView, resumed: z.array(Job) }),
  }),
  /** Turns a server off or on for the workspace's jobs from now on: a person's choice, so it applies without review. */
  setMcpServerEnabled: op({
    method: 'POST',
    path: '/mcp/enabled',
    status: 200,
    input: z.object({ workspacePath: z.string().min(1).max(4096), server: ServerName, enabled: z.boolean() }).strict(),
    output: z.object({ server: McpServerView }),
  }),
  /**
   * Starts an OAuth sign-in to an HTTP server of the workspace: the address to open in the person's browser (which
   * comes back to this host's loopback address), or null when a refresh signed it in at once. Jobs parked on the
   * server go on once it is done.
   */
  startMcpSignIn: op({
    method: 'POST',
    path: '/mcp/sign-in',
    status: 200,
    input: z.object({ workspacePath: z.string().min(1).max(4096), server: ServerName }).strict(),
    output: z.object({ authorizationUrl: z.string().nullable(), server: McpServerView }),
  }),
  /**
   * Finishes a sign-in with the address the browser was sent back to, for a host the browser cannot reach (its
   * loopback address is on another machine).
   */
  completeMcpSignIn: op({
    method: 'POST',
    path: '/mcp/sign-in/complete',
    status: 200,
    input: z
      .object({
        workspacePath: z.string().min(1).max(4096),
        server: ServerName,
        address: z.string().min(1).max(8192),
      })
      .strict(),
    output: z.object({ server: McpServerView }),
  }),
  /** Starts the server now, lists its tools and stops it again: its status, tools and error as a job would find them. */
  checkMcpServer: op({
    method: 'POST',
    path: '/mcp/check',
    status: 200,
    input: z.object({ workspacePath: z.string().min(1).max(4096), server: ServerName }).strict(),
    output: z.object({ server: McpServerView }),
  }),
  /**
   * Adds a server as a person typed it to the workspace's `.maestro/mcp.json` (the file as it is now, other entries
   * kept) and accepts it as written; a secret env value is sealed in the data dir, never written to the file.
   */
  addMcpServer: op({
    method: 'POST',
    path: '/mcp/servers',
    status: 201,
    input: z.object({ workspacePath: z.string().min(1).max(4096), server: McpServerDraft }).strict(),
    output: z.object({ server: McpServerView }),
  }),
  /** Removes a server from the workspace's mcp.json (and its saved token), accepted as written. */
  removeMcpServer: op({
    method: 'POST',
    path: '/mcp/remove',
    status: 200,
    input: z.object({ workspacePath: z.string().min(1).max(4096), server: ServerName }).strict(),
    output: z.object({ servers: z.array(McpServerView) }),
  }),
  /** What the task's MCP servers ask of the person now (forms, leave to ask the model); empty when nothing waits. */
  listMcpPrompts: op({
    method: 'GET',
    path: '/tasks/:taskId/mcp-prompts',
    status: 200,
    input: taskRef,
    output: z.object({ prompts: z.array(McpPrompt) }),
  }),
  /**
   * The person's answer to what a server asked: `accept` (a form with its `content`; for sampling, ask the model),
   * `decline`, or `cancel` (a form left without an answer). It goes back to the server at once.
   */
  answerMcpPrompt: op({
    method: 'POST',
    path: '/tasks/:taskId/mcp-prompts/:promptId/answer',
    status: 200,
    input: z
      .object({
        taskId: Id,
        promptId: Id,
        action: z.enum(['accept', 'decline', 'cancel']),
        content: McpPromptContent.optional(),
      })
      .strict()
      .refine((i) => i.action === 'accept' || i.content === undefined, {
        path: ['content'],
        message: "content goes with action 'accept' only",
      }),
    output: z.object({ prompt: McpPrompt }),
  }),
};

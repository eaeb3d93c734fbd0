// The event union pushed to subscribers (IPC push, SSE). Persisted events have a strictly increasing seq (the SSE
// id); transient ones (stream deltas) have seq 0 and are never replayed. New types are added; existing keep shape.
import { z } from 'zod';
import { PolicyAction } from './auto-prompter';
import { McpPrompt } from './contract/mcp';
import {
  ChatStep,
  Comment,
  Job,
  PackageRequest,
  Task,
  ToolCallDenial,
  ToolCallResult,
  ToolRequest,
  UsageSums,
} from './entities';
import { Lesson } from './lessons';

export { UsageSums };

const base = { seq: z.number().int(), ts: z.string(), taskId: z.string(), jobId: z.string().nullable() };

export const INVOKE_KINDS = ['UserSend', 'Notify', 'PodEvent', 'SystemReminder', 'Wakeup'] as const;
export const InvokeKind = z.enum(INVOKE_KINDS);
export type InvokeKind = z.infer<typeof InvokeKind>;

export const MaestroEvent = z.discriminatedUnion('type', [
  z.object({ ...base, type: z.literal('task.created'), task: Task }),
  /** Renamed, archived or brought back from the archive. */
  z.object({ ...base, type: z.literal('task.changed'), task: Task }),
  /** The task and its subtasks (`taskIds`, the task first) are gone with everything that hung on them. */
  z.object({ ...base, type: z.literal('task.deleted'), taskIds: z.array(z.string()) }),
  z.object({ ...base, type: z.literal('job.changed'), job: Job }),
  z.object({ ...base, type: z.literal('comment.created'), comment: Comment }),
  z.object({ ...base, type: z.literal('tool_request.changed'), request: ToolRequest }),
  z.object({ ...base, type: z.literal('package_request.changed'), request: PackageRequest }),
  z.object({ ...base, type: z.literal('InvokeStart'), kind: InvokeKind }),
  z.object({
    ...base,
    type: z.literal('TurnStart'),
    turnCount: z.number().int(),
    /** > 0: a delegated sub-agent's turn, inside the job's turn that called it (absent: the job's own). */
    depth: z.number().int().min(0).optional(),
  }),
  z.object({ ...base, type: z.literal('TurnEnd'), turnCount: z.number().int(), usage: UsageSums }),
  z.object({ ...base, type: z.literal('LlmCallStart'), llmCallCount: z.number().int(), attempt: z.number().int() }),
  /**
   * The next LlmCall waits for its profile's capacity: a place under the profile's limit of calls at once (`limit`),
   * or the end of a pause the server asked for with a 429 or its rate-limit headers (`rate_limited`, until `until`).
   */
  z.object({
    ...base,
    type: z.literal('LlmWait'),
    reason: z.enum(['limit', 'rate_limited']),
    until: z.string().optional(),
  }),
  z.object({
    ...base,
    type: z.literal('LlmCallEnd'),
    llmCallCount: z.number().int(),
    attempt: z.number().int(),
    outcome: z.string(),
    latencyMs: z.number(),
    ttftMs: z.number().nullable(),
    usage: UsageSums,
    cachedPromptTokens: z.number().int(),
  }),
  z.object({ ...base, type: z.literal('movement.entered'), movement: z.string() }),
  /** The LLM Router chose the task's piece (P10.05), or fell back to the default with a warning (P10.06). */
  z.object({
    ...base,
    type: z.literal('task.routed'),
    pieceId: z.string(),
    routed: z.boolean(),
    warning: z.string().nullable(),
  }),
  z.object({
    ...base,
    type: z.literal('tool.finished'),
    callId: z.string(),
    name: z.string(),
    ok: z.boolean(),
    preview: z.string(),
    /** Added later, optional: the call was denied (`preview` is then the model's text, not the person's view). */
    denial: ToolCallDenial.optional(),
  }),
  z.object({
    ...base,
    type: z.literal('job.metrics'),
    status: z.string(),
    durationMs: z.number().int(),
    attempt: z.number().int(),
    usage: UsageSums,
  }),
  z.object({
    ...base,
    type: z.literal('prompt.guarded'),
    outcome: z.enum(['rewrite', 'overflow']),
    steps: z.array(z.string()),
    tokensBefore: z.number().int(),
    tokensAfter: z.number().int(),
  }),
  /** A Policy Event (spec §4.1): an Auto Prompter rule fired. Allowlisted fields only — no arguments or texts. */
  z.object({
    ...base,
    type: z.literal('policy.fired'),
    ruleIndex: z.number().int(),
    ruleId: z.string().nullable(),
    action: PolicyAction,
    tool: z.string(),
  }),
  /**
   * A settings file of the job's workspace (`file`, relative to it) is not the version a person accepted, so the job
   * does not apply it: the accepted version is in force, or the safe default when none was accepted.
   */
  z.object({
    ...base,
    type: z.literal('settings.changed'),
    workspacePath: z.string(),
    file: z.string(),
    inForce: z.enum(['accepted', 'default']),
  }),
  /** A webhook delivery given up after its retries (or pushed out of a full queue); names the webhook by origin. */
  z.object({
    ...base,
    type: z.literal('webhook.failed'),
    webhook: z.string(),
    event: z.string(),
    attempts: z.number().int(),
    reason: z.string(),
  }),
  /** A lesson was proposed by a Reflection of the task, or a person decided or edited it (P2.08). */
  z.object({ ...base, type: z.literal('lesson.changed'), lesson: Lesson }),
  /** An AgentTurn as recorded in the log, once its generation ended: the row the chat shows instead of the stream. */
  z.object({ ...base, type: z.literal('step.recorded'), step: ChatStep }),
  /** The result of one of a recorded step's tool calls, as recorded. */
  z.object({
    ...base,
    type: z.literal('step.answered'),
    stepSeq: z.number().int(),
    callId: z.string(),
    result: ToolCallResult,
  }),
  /** A running tool call reports how far it has come (an MCP server's progress notifications). */
  z.object({
    ...base,
    type: z.literal('tool.progress'),
    callId: z.string(),
    name: z.string(),
    progress: z.number(),
    total: z.number().nullable(),
    message: z.string().nullable(),
  }),
  /**
   * What an MCP server asks the person while its call runs opened (`open`) or closed (answered, timed out, its job
   * ended); not stored: it lives as long as the call (GET /tasks/:id/mcp-prompts lists the open ones).
   */
  z.object({ ...base, type: z.literal('mcp_prompt.changed'), prompt: McpPrompt, open: z.boolean() }),
  z.object({
    ...base,
    type: z.literal('stream.delta'),
    text: z.string(),
    reasoning: z.string(),
    toolCalls: z.array(
      z.object({
        index: z.number().int(),
        id: z.string().optional(),
        name: z.string().optional(),
        arguments: z.string(),
      }),
    ),
  }),
]);
export type MaestroEvent = z.infer<typeof MaestroEvent>;
export type MaestroEventType = MaestroEvent['type'];

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** An event before the event log has given it a seq and a timestamp. */
export type NewEvent = DistributiveOmit<MaestroEvent, 'seq' | 'ts'>;

/**
 * Events that are pushed live but not stored (seq 0): streaming text, the LLM's and the tools' progress and the chat's steps. What
 * they report is stored elsewhere: usage and Turn/LlmCall boundaries in the conversation log (GET /tasks/:id/usage),
 * the steps there too (GET /tasks/:id/recent); a window that missed some reads them again when it reconnects.
 */
export const TRANSIENT_EVENT_TYPES: readonly MaestroEventType[] = [
  'stream.delta',
  'tool.progress',
  'TurnStart',
  'TurnEnd',
  'LlmCallStart',
  'LlmWait',
  'LlmCallEnd',
  'step.recorded',
  'step.answered',
  'mcp_prompt.changed',
];

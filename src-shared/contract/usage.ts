// A task's token usage, rolled up LlmCall → AgentTurn → Invoke → job → task, with what it cost where its models have
// prices (src-shared/pricing.ts); and how full the model's context window was at the last request.
import { z } from 'zod';
import { InvokeKind, UsageSums } from '../events';
import { op, taskRef } from './operation';

export const Usage = UsageSums;
export type Usage = z.infer<typeof Usage>;

/** USD; null when a call in the sum has no price for its model (tokens only, never a wrong figure). */
const Usd = z.number().nullable();

/**
 * The last request's prompt against the model's context window: from the server's model list where it says
 * (`server`), else the profile's own field (`profile`). Null when the window is unknown: no gauge is guessed.
 */
export const ContextGauge = z.object({
  promptTokens: z.number().int(),
  contextWindow: z.number().int().positive(),
  source: z.enum(['server', 'profile']),
  model: z.string(),
});
export type ContextGauge = z.infer<typeof ContextGauge>;

export const TaskUsage = z.object({
  total: Usage,
  totalUsd: Usd,
  jobs: z.array(z.object({ jobId: z.string(), usage: Usage, usd: Usd })),
  invokes: z.array(
    z.object({
      seq: z.number().int(),
      kind: InvokeKind,
      jobId: z.string(),
      ts: z.string(),
      usage: Usage,
      usd: Usd,
      agentTurns: z.array(
        z.object({
          seq: z.number().int(),
          usage: Usage,
          usd: Usd,
          llmCalls: z.array(
            z.object({
              seq: z.number().int(),
              agentTurnSeq: z.number().int(),
              attempt: z.number().int(),
              outcome: z.string(),
              latencyMs: z.number().nullable(),
              ttftMs: z.number().nullable(),
              usage: Usage,
              usd: Usd,
              /** The model the call asked for; null for calls recorded before it was kept. */
              model: z.string().nullable(),
            }),
          ),
        }),
      ),
    }),
  ),
});
export type TaskUsage = z.infer<typeof TaskUsage>;

export const usageOperations = {
  getUsage: op({
    method: 'GET',
    path: '/tasks/:taskId/usage',
    status: 200,
    input: taskRef,
    output: TaskUsage,
  }),
  /** Asks the model's server for its list (kept an hour), so it is a call of its own beside getUsage. */
  getContextGauge: op({
    method: 'GET',
    path: '/tasks/:taskId/context',
    status: 200,
    input: taskRef,
    output: z.object({ context: ContextGauge.nullable() }),
  }),
};

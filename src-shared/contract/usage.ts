// A task's token usage, rolled up LlmCall → AgentTurn → Invoke → job → task.
import { z } from 'zod';
import { InvokeKind, UsageSums } from '../events';
import { op, taskRef } from './operation';

export const Usage = UsageSums;
export type Usage = z.infer<typeof Usage>;

export const usageOperations = {
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
};

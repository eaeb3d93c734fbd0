// A task's tool requests and package requests: listed, and approved or denied by a person.
import { z } from 'zod';
import { PackageRequest, ToolRequest } from '../entities';
import { GrantChoice } from '../grants';
import { Id, op, taskRef } from './operation';

/** Why a person denies a call, for the model: optional, one paragraph at most. */
const DenyReason = z.string().trim().min(1, 'give a reason or leave it out').max(2000).optional();

export const requestOperations = {
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
        /** What scope `task` grants (default: exactly what the card showed). */
        grant: GrantChoice.optional(),
        reason: DenyReason,
      })
      .strict()
      .refine((i) => i.decision === 'deny' || i.reason === undefined, {
        path: ['reason'],
        message: 'a reason goes with deny only',
      })
      .refine((i) => i.grant === undefined || (i.decision === 'approve' && i.scope === 'task'), {
        path: ['grant'],
        message: "a grant goes with decision 'approve' and scope 'task' only",
      }),
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
    input: z
      .object({ taskId: Id, requestId: Id, decision: z.enum(['approve', 'deny']), reason: DenyReason })
      .strict()
      .refine((i) => i.decision === 'deny' || i.reason === undefined, {
        path: ['reason'],
        message: 'a reason goes with deny only',
      }),
    output: z.object({ request: PackageRequest }),
  }),
};

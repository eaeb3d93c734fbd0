// A task's tool requests and package requests: listed, and approved or denied by a person.
import { z } from 'zod';
import { PackageRequest, ToolRequest } from '../entities';
import { Id, op, taskRef } from './operation';

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
};

// A task's grants (what a person approved "for this task"): listed with the task, and revoked one at a time.
import { z } from 'zod';
import { TaskGrant } from '../grants';
import { Id, op, taskRef } from './operation';

export const grantOperations = {
  listTaskGrants: op({
    method: 'GET',
    path: '/tasks/:taskId/grants',
    status: 200,
    input: taskRef,
    output: z.object({ grants: z.array(TaskGrant) }),
  }),
  revokeTaskGrant: op({
    method: 'POST',
    path: '/tasks/:taskId/grants/:grantId/revoke',
    status: 200,
    input: z.object({ taskId: Id, grantId: Id }).strict(),
    output: z.object({ grant: TaskGrant }),
  }),
};

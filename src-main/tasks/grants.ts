// GET /tasks/:id/grants and POST /tasks/:id/grants/:grantId/revoke: what a person approved "for this task", and
// taking one back. A revoked grant covers no call from the next one on (the engine reads grants per call).
import type { OpInput, OpOutput } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import type { TaskContext } from './context';
import { notFound } from './errors';
import { requireTask } from './queries';

export function listTaskGrants(ctx: TaskContext, { taskId }: OpInput<'listTaskGrants'>): OpOutput<'listTaskGrants'> {
  requireTask(ctx, taskId);
  return { grants: ctx.store.taskGrants.listForTask(taskId) };
}

export function revokeTaskGrant(
  ctx: TaskContext,
  { taskId, grantId }: OpInput<'revokeTaskGrant'>,
): OpOutput<'revokeTaskGrant'> {
  requireTask(ctx, taskId);
  return ctx.store.transact(() => {
    const grant = ctx.store.taskGrants.get(grantId);
    if (!grant || grant.taskId !== taskId) throw notFound('grant', grantId);
    if (grant.revokedAt !== null) throw new MaestroError('conflict', `grant ${grantId} is already revoked`);
    const revoked = ctx.store.taskGrants.revoke(grantId);
    if (!revoked) throw new MaestroError('conflict', `grant ${grantId} is already revoked`);
    return { grant: revoked };
  });
}

// POST …/tool-requests/:rid/decide and …/package-requests/:rid/decide: a person's decision, said to the request
// commands (jobs/requests.ts: compare-and-set, and the parked job goes on once none of its requests is pending); an
// approval for the task stores the grant the person chose, in the same transaction.
import type { OpOutput, OpParsedInput } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import type { GrantChoice } from '../../src-shared/grants';
import type { ToolRequestRecord } from '../db/repos/tool-requests';
import { decidePackageRequest as decidePackage, decideToolRequest as decideTool } from '../jobs/requests';
import { type GrantScope, grantOf } from '../tools/grants';
import type { TaskContext } from './context';
import { requireTask } from './queries';

/**
 * What "for this task" grants of the call the card showed: the person's choice, or without one exactly what was shown
 * (the narrowest). A choice that does not fit the call is the caller's error, and nothing is decided.
 */
function grantFor(request: ToolRequestRecord, choice: GrantChoice | undefined): GrantScope {
  const made = grantOf(request.tool, request.args, choice ?? { kind: 'exact' });
  if (!made.ok) throw new MaestroError('invalid_input', made.message, [{ path: ['grant'], message: made.message }]);
  return made.grant;
}

export function decideToolRequest(
  ctx: TaskContext,
  input: OpParsedInput<'decideToolRequest'>,
): OpOutput<'decideToolRequest'> {
  requireTask(ctx, input.taskId);
  const request = decideTool(ctx.store, {
    taskId: input.taskId,
    requestId: input.requestId,
    approved: input.decision === 'approve',
    scope: input.scope,
    reason: input.reason,
    grant: (record) => grantFor(record, input.grant),
  });
  return { request };
}

export function decidePackageRequest(
  ctx: TaskContext,
  input: OpParsedInput<'decidePackageRequest'>,
): OpOutput<'decidePackageRequest'> {
  requireTask(ctx, input.taskId);
  const request = decidePackage(ctx.store, {
    taskId: input.taskId,
    requestId: input.requestId,
    approved: input.decision === 'approve',
    reason: input.reason,
  });
  return { request };
}

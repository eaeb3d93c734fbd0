// `invoke` for a caller's token: the operation's scope (caller-scope.ts) is applied before anything runs — a hidden
// task's route is 404 before its input is even read, so nothing is written — lists are narrowed to what it sees
// before they are read (where a list can be) and filtered after, and each write the caller made is recorded in
// caller_actions (the audit says which caller did what).
import { assertNever } from '../../src-shared/assert-never';
import { contract, type OperationName } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import { callersRepo } from '../db/repos/callers';
import { CALLER_SCOPES, type CallerScope } from './caller-scope';
import type { CallerView } from './caller-view';
import type { AppContext } from './context';
import { invoke, parseInput } from './operations';

export async function invokeAs(
  ctx: AppContext,
  view: CallerView,
  name: OperationName,
  input: Record<string, unknown>,
): Promise<unknown> {
  const scope = CALLER_SCOPES[name] as CallerScope<OperationName>;
  switch (scope.kind) {
    case 'open':
      return invoke(ctx, name, input);
    case 'owner':
      throw new MaestroError('forbidden', `${name} is the host owner's to call; a caller's token cannot`);
    case 'list': {
      if (!scope.narrow) return scope.filter(view, (await invoke(ctx, name, input)) as never);
      const narrowed = scope.narrow(view, parseInput(name, input));
      if ('answer' in narrowed) return narrowed.answer;
      return scope.filter(view, (await invoke(ctx, name, narrowed.input)) as never);
    }
    case 'task':
      view.requireTask(String(input.taskId));
      break;
    case 'create':
      view.requirePlacement(parseInput(name as 'createTask', input));
      break;
    default:
      assertNever(scope);
  }
  const output = await invoke(ctx, name, input);
  if (contract[name].method !== 'GET') recordCallerWrite(ctx, view, name, input, output);
  return output;
}

/** The audit of a write the caller made: the task it made (its answer's `task`), or else the task it wrote to. */
export function recordCallerWrite(
  ctx: AppContext,
  view: CallerView,
  name: OperationName,
  input: Record<string, unknown>,
  output: unknown,
): void {
  const made = (output as { task?: { id?: unknown } } | undefined)?.task?.id;
  const taskId = typeof made === 'string' ? made : typeof input.taskId === 'string' ? input.taskId : null;
  callersRepo(ctx.store.db).recordAction(view.caller.id, name, taskId);
}

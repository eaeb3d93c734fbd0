// What the Agent2Agent side of the bridge gets of the app: the DB and the operations it writes through, each input
// checked by the contract's schema as any caller's is; a task another agent starts is created as POST /tasks/run does.
// For a caller's token (`view`), the caller's rules hold as on every other route: only its spaces' tasks exist for it,
// a new task lands in one of its spaces, and what it writes is recorded as its action.
import type { A2aHost } from '../a2a/request-handler';
import { BY_AGENT, createTask } from '../tasks/create';
import { recordCallerWrite } from './caller-invoke';
import type { CallerView } from './caller-view';
import type { AppContext } from './context';
import { invoke, parseInput } from './operations';

export function a2aHost(ctx: AppContext, view?: CallerView): A2aHost {
  const store = ctx.store;
  const listPieces = () => invoke(ctx, 'listPieces', {});
  if (!view) {
    return {
      store,
      version: ctx.version,
      seesTask: () => true,
      createTask: (input) => createTask(ctx, parseInput('createTask', input), BY_AGENT),
      addComment: (input) => invoke(ctx, 'addComment', input),
      continueTask: (input) => invoke(ctx, 'continueTask', input),
      cancelTask: (input) => invoke(ctx, 'cancelTask', input),
      listPieces,
    };
  }
  // The A2A handler's writes are synchronous (inside its transaction); invokeAs answers these ones at once.
  const asCaller = <T>(name: 'addComment' | 'continueTask' | 'cancelTask', input: Record<string, unknown>): T => {
    view.requireTask(String(input.taskId));
    const output = invoke(ctx, name, input) as T;
    recordCallerWrite(ctx, view, name, input, output);
    return output;
  };
  return {
    store,
    version: ctx.version,
    seesTask: (taskId) => view.seesTask(taskId),
    createTask: (input) => {
      const parsed = parseInput('createTask', input);
      view.requirePlacement(parsed);
      const created = createTask(ctx, parsed, BY_AGENT);
      recordCallerWrite(ctx, view, 'createTask', {}, created);
      return created;
    },
    addComment: (input) => asCaller('addComment', input),
    continueTask: (input) => asCaller('continueTask', input),
    cancelTask: (input) => asCaller('cancelTask', input),
    listPieces,
  };
}

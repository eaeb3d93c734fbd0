// What the Agent2Agent side of the bridge gets of the app: the DB and the operations it writes through, each input
// checked by the contract's schema as any caller's is; a task another agent starts is created as POST /tasks/run does.
import type { A2aHost } from '../a2a/request-handler';
import { BY_AGENT, createTask } from '../tasks/create';
import type { AppContext } from './context';
import { invoke, parseInput } from './operations';

export function a2aHost(ctx: AppContext): A2aHost {
  return {
    store: ctx.store,
    version: ctx.version,
    createTask: (input) => createTask(ctx, parseInput('createTask', input), BY_AGENT),
    addComment: (input) => invoke(ctx, 'addComment', input),
    continueTask: (input) => invoke(ctx, 'continueTask', input),
    cancelTask: (input) => invoke(ctx, 'cancelTask', input),
    listPieces: () => invoke(ctx, 'listPieces', {}),
  };
}

// GET /spaces and POST /spaces/:spaceId: the persistent workspace folders tasks run in, their names and pins, and
// when their tasks are reflected on by themselves (P2.08).
import type { OpOutput, OpParsedInput } from '../../src-shared/contract';
import type { TaskContext } from './context';
import { invalid, notFound } from './errors';

export function listSpaces(ctx: TaskContext): OpOutput<'listSpaces'> {
  return { spaces: ctx.store.spaces.list() };
}

export function updateSpace(ctx: TaskContext, input: OpParsedInput<'updateSpace'>): OpOutput<'updateSpace'> {
  const { store } = ctx;
  return store.transact(() => {
    const space = store.spaces.get(input.spaceId);
    if (!space) throw notFound('space', input.spaceId);
    const pinnedPieceId = input.pinnedPieceId === undefined ? space.pinnedPieceId : input.pinnedPieceId;
    if (pinnedPieceId !== null && !ctx.pieces.get(pinnedPieceId, space.folder)) {
      throw invalid('pinnedPieceId', `no piece named ${pinnedPieceId} for the folder ${space.folder}`);
    }
    const reflection = input.reflection === undefined ? (space.reflection ?? null) : input.reflection;
    store.spaces.update(space.id, { name: input.name ?? space.name, pinnedPieceId, reflection });
    return { space: store.spaces.get(space.id) ?? space };
  });
}

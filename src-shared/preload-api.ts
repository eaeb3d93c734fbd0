// The object the preload exposes as `window.maestro`: one method per contract operation (answering a Result) and an
// event subscription that returns its disposer. Nothing else crosses into the renderer.
import type { OperationName, OpInput, OpOutput } from './contract';
import type { Result } from './errors';
import type { MaestroEvent } from './events';

export type PreloadApi = { [N in OperationName]: (input: OpInput<N>) => Promise<Result<OpOutput<N>>> } & {
  onEvent(listener: (event: MaestroEvent) => void): () => void;
};

export const PRELOAD_GLOBAL = 'maestro';

// What a piece run ends in (architecture rule 5): the engine declares it (engine/piece-result.ts), apply-result.ts
// maps it to the job's state.
export type { PieceRunResult } from '../engine/piece-result';

// The product's engine as the benches run it: everything the host hands it, and quiet (no per-call cache lines on
// stdout, which would charge a bench for its own log).
import type { MaestroOptions } from '../src-main/app/create-maestro';
import { createEngine } from '../src-main/engine/engine';
import { jobJournals } from '../src-main/jobs/journal';

export const quietEngine: NonNullable<MaestroOptions['engine']> = ({
  store,
  profiles,
  pieces,
  sandbox,
  readSettings,
  agentTokens,
  checkpoints,
}) =>
  createEngine({
    journals: jobJournals(store),
    profiles,
    options: { sandbox, checkpoints },
    pieceExists: (id, ws) => pieces.get(id, ws) !== undefined,
    readSettings,
    agentTokens,
    llm: { log: () => {} },
  });

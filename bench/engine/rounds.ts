// One round of the engine bench: the engine's job and the raw SDK's replay, in alternating order, each after a GC.
import v8 from 'node:v8';
import vm from 'node:vm';
import { type Bench, type EngineRun, runEngineJob } from './engine-job';
import { type RawRun, runRaw } from './raw-sdk';
import type { Replay } from './replay';
import { LOOP_PIECE } from './workspace';

// A full collection before each measured side, so that one side's garbage is not collected on the other's clock.
v8.setFlagsFromString('--expose-gc');
export const gc = vm.runInNewContext('gc') as () => void;

export interface Round {
  engine: EngineRun;
  raw: RawRun;
  engineFirst: boolean;
}

/** Round `r` (0-based) of a job against a model with `ttftMs` to first token; even rounds run the engine first. */
export async function runRound(bench: Bench, replay: Replay, r: number, ttftMs = 0): Promise<Round> {
  let engine: EngineRun | undefined;
  let raw: RawRun | undefined;
  const engineSide = async () => {
    gc();
    engine = await runEngineJob(bench, LOOP_PIECE, replay.script, { ttftMs });
  };
  const rawSide = async () => {
    gc();
    raw = await runRaw(replay.bodies, replay.script, ttftMs);
  };
  const engineFirst = r % 2 === 0;
  for (const side of engineFirst ? [engineSide, rawSide] : [rawSide, engineSide]) await side();
  if (!engine || !raw) throw new Error('a side of the round did not run');
  return { engine, raw, engineFirst };
}

// What every round replays: the one-movement job's script and the request bodies the engine sent for it, recorded
// by warm-up jobs (JIT, module loading, SQLite) that are not counted.
import type { ChatRequestBody, ScriptedStep } from '../../test-support/scripted-llm-server';
import { type Bench, runEngineJob } from './engine-job';
import { runRaw } from './raw-sdk';
import { loopScript } from './script';
import { LOOP_PIECE } from './workspace';

export interface Replay {
  script: ScriptedStep[];
  /** As the engine sent them, the bytes (prefix reuse reads them) and parsed (the raw SDK sends them). */
  rawBodies: string[];
  bodies: ChatRequestBody[];
}

export async function recordReplay(bench: Bench, iterations: number): Promise<Replay> {
  const script = loopScript(iterations);
  const warm = await runEngineJob(bench, LOOP_PIECE, script);
  if (warm.bodies.length !== iterations) throw new Error(`expected ${iterations} requests, got ${warm.bodies.length}`);
  const replay = {
    script,
    rawBodies: warm.bodies,
    bodies: warm.bodies.map((raw) => JSON.parse(raw) as ChatRequestBody),
  };
  // A second pair: one job is not enough for V8 to settle the engine's hot paths (round 1 read high without it).
  await runRaw(replay.bodies, script);
  await runEngineJob(bench, LOOP_PIECE, script);
  await runRaw(replay.bodies, script);
  return replay;
}

// What a user waits for: the wall time of a whole job against a scripted model with a realistic time to first token,
// the engine's (createTask to the terminal event) against the raw SDK replaying the same bodies on the same server.
import type { Bench } from './engine-job';
import { median, ms, msPrecise, times, type Verdict, verdict } from './figures';
import { TARGETS, TTFT_MS } from './options';
import type { Replay } from './replay';
import { runRound } from './rounds';
import { clientGaps, iterationTimes } from './turns';

export async function measureLatency(bench: Bench, replay: Replay, rounds: number): Promise<Verdict[]> {
  const iterations = replay.bodies.length;
  console.log(`a ${iterations}-iteration job against a model with ${TTFT_MS} ms to first token:`);
  const ratios: number[] = [];
  const engineMs: number[] = [];
  const rawMs: number[] = [];
  const perIteration: number[] = [];
  const gaps = { engine: [] as number[], raw: [] as number[] };
  for (let r = 0; r < rounds; r++) {
    const round = await runRound(bench, replay, r, TTFT_MS);
    const engine = iterationTimes(round.engine.arrivals);
    const raw = iterationTimes(round.raw.arrivals);
    const overhead = median(engine.map((t, i) => t - (raw[i] as number)));
    ratios.push(round.engine.ms / round.raw.ms);
    engineMs.push(round.engine.ms);
    rawMs.push(round.raw.ms);
    perIteration.push(overhead);
    gaps.engine.push(median(clientGaps(round.engine.arrivals, round.engine.replies)));
    gaps.raw.push(median(clientGaps(round.raw.arrivals, round.raw.replies)));
    console.log(
      `  round ${r + 1} (${round.engineFirst ? 'engine first' : 'raw first'}): engine ${ms(round.engine.ms)}, raw ` +
        `SDK ${ms(round.raw.ms)}, ratio ${times(round.engine.ms / round.raw.ms)}; median overhead per iteration ` +
        `${msPrecise(overhead)}`,
    );
  }
  const ratio = median(ratios);
  console.log(
    `  medians of ${rounds} rounds: engine ${ms(median(engineMs))}, raw SDK ${ms(median(rawMs))} ` +
      `(${msPrecise(median(rawMs) / iterations)} per iteration), overhead per iteration ${msPrecise(median(perIteration))}`,
  );
  console.log(
    `  from a reply's last byte to the next request (the client's part of an iteration): engine ` +
      `${msPrecise(median(gaps.engine))}, raw SDK ${msPrecise(median(gaps.raw))}`,
  );
  return [
    verdict(
      ratio <= TARGETS.latencyRatio,
      `job at ${TTFT_MS} ms TTFT: engine / raw SDK ${times(ratio)} (target ≤ ${times(TARGETS.latencyRatio)}) ` +
        `[rounds: ${ratios.map(times).join(', ')}]`,
    ),
  ];
}

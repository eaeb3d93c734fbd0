// The engine's overhead per iteration, early and late in one long job against a zero-latency model: each iteration's
// time (from the server's arrivals) minus the raw SDK's for the same request, so that it must stay flat as the
// conversation grows (turn 200 within 1.5× of turn 10) and small (median ≤ 2 ms).
import type { Bench } from './engine-job';
import { median, ms, msPrecise, times, type Verdict, verdict } from './figures';
import { EARLY_TURN, LATE_TURN, TARGETS } from './options';
import type { Replay } from './replay';
import { type Round, runRound } from './rounds';
import { iterationTimes, type TurnWindow, turnWindow, windowMedian } from './turns';

interface RoundFigures {
  /** Overhead per iteration in the early and late windows and over the whole job, ms. */
  early: number;
  late: number;
  all: number;
  /** The raw SDK's own time per iteration in each window, ms: the baseline that grows with the conversation. */
  rawEarly: number;
  rawLate: number;
  /** The same overheads in this process's CPU time, steadier than wall time on a loaded machine (NaN if unread). */
  cpuEarly: number;
  cpuLate: number;
  cpuAll: number;
}

/** Per iteration, the engine's time minus the raw SDK's, from marks (arrivals, CPU readings) one per request. */
function perIteration(engineMarks: readonly number[], rawMarks: readonly number[]) {
  const engine = iterationTimes(engineMarks);
  const raw = iterationTimes(rawMarks);
  if (engine.length !== raw.length) return { raw, overhead: raw.map(() => Number.NaN) };
  return { raw, overhead: engine.map((t, i) => t - (raw[i] as number)) };
}

function figures(round: Round, early: TurnWindow, late: TurnWindow): RoundFigures {
  const { raw, overhead } = perIteration(round.engine.arrivals, round.raw.arrivals);
  const cpu = perIteration(round.engine.cpuMarks, round.raw.cpuMarks).overhead;
  return {
    early: windowMedian(overhead, early),
    late: windowMedian(overhead, late),
    all: median(overhead),
    rawEarly: windowMedian(raw, early),
    rawLate: windowMedian(raw, late),
    cpuEarly: windowMedian(cpu, early),
    cpuLate: windowMedian(cpu, late),
    cpuAll: median(cpu),
  };
}

export async function measureOverhead(bench: Bench, replay: Replay, rounds: number): Promise<Verdict[]> {
  const turns = replay.bodies.length - 1;
  const early = turnWindow(EARLY_TURN, turns);
  const late = turnWindow(LATE_TURN, turns);
  console.log(
    `overhead per iteration (zero model latency; turns ${early.first}–${early.last} and ${late.first}–${late.last} ` +
      `of a ${replay.bodies.length}-iteration job; engine minus raw SDK per request):`,
  );
  const all: (RoundFigures & { jobRatio: number; cpuRatio: number })[] = [];
  for (let r = 0; r < rounds; r++) {
    const round = await runRound(bench, replay, r);
    const f = {
      ...figures(round, early, late),
      jobRatio: round.engine.ms / round.raw.ms,
      cpuRatio: round.engine.cpuMs / round.raw.cpuMs,
    };
    all.push(f);
    console.log(
      `  round ${r + 1} (${round.engineFirst ? 'engine first' : 'raw first'}): turn ${early.turn} ` +
        `${msPrecise(f.early)}, turn ${late.turn} ${msPrecise(f.late)}, all ${msPrecise(f.all)} (CPU ` +
        `${msPrecise(f.cpuEarly)}, ${msPrecise(f.cpuLate)}, ${msPrecise(f.cpuAll)}); job ` +
        `${ms(round.engine.ms)} vs ${ms(round.raw.ms)} (${times(f.jobRatio)}), ${round.engine.events} events`,
    );
  }
  const at = (key: keyof (typeof all)[number]) => median(all.map((f) => f[key]));
  const flatness = at('late') / at('early');
  console.log(
    `  medians of ${rounds} rounds: turn ${early.turn} ${msPrecise(at('early'))} (raw SDK's own ` +
      `${msPrecise(at('rawEarly'))}), turn ${late.turn} ${msPrecise(at('late'))} (raw SDK's own ` +
      `${msPrecise(at('rawLate'))}), all iterations ${msPrecise(at('all'))}; whole job ${times(at('jobRatio'))} the ` +
      `raw SDK's wall time, ${times(at('cpuRatio'))} its CPU time (the client process only)`,
  );
  console.log(
    `  in CPU time (this process): turn ${early.turn} ${msPrecise(at('cpuEarly'))}, turn ${late.turn} ` +
      `${msPrecise(at('cpuLate'))} (${times(at('cpuLate') / at('cpuEarly'))}), all iterations ` +
      `${msPrecise(at('cpuAll'))}`,
  );
  const lateVsEarly =
    `turn ${late.turn} ${msPrecise(at('late'))} / ` +
    `turn ${early.turn} ${msPrecise(at('early'))} = ${times(flatness)}`;
  return [
    at('early') > 0
      ? verdict(
          flatness <= TARGETS.flatness,
          `overhead flat with the conversation: ${lateVsEarly} (target ≤ ${times(TARGETS.flatness)})`,
        )
      : verdict(
          at('late') <= 0,
          `overhead flat with the conversation: none at turn ${early.turn} (${msPrecise(at('early'))}), so none ` +
            `allowed at turn ${late.turn} (${msPrecise(at('late'))})`,
        ),
    verdict(
      at('all') <= TARGETS.overheadMs,
      `median overhead per iteration ${msPrecise(at('all'))} (target ≤ ${msPrecise(TARGETS.overheadMs)})`,
    ),
  ];
}

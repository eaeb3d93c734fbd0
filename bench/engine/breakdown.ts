// Where the engine's time goes: one more, instrumented, engine job whose repository methods, commits, file writes
// and JSON serialization are wrapped and timed (the code under test is observed, not changed), each call binned into
// the iteration it ran in, so that a cost that grows with the conversation shows as turn 200 against turn 10.
import fs from 'node:fs';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import type { Maestro } from '../../src-main/app/create-maestro';
import { type Bench, runEngineJob } from './engine-job';
import { median, ms, msPrecise } from './figures';
import { EARLY_TURN, LATE_TURN } from './options';
import { runRaw } from './raw-sdk';
import type { Replay } from './replay';
import { gc } from './rounds';
import { iterationTimes, type TurnWindow, turnWindow, windowMedian } from './turns';
import { LOOP_PIECE } from './workspace';

type Fn = (...args: never[]) => unknown;

/** One wrapped call: when it started (epoch ms, the server's clock) and how long it took. */
interface Call {
  at: number;
  ms: number;
}

function probe() {
  const calls = new Map<string, Call[]>();
  const restores: (() => void)[] = [];
  const wrap = <K extends string>(owner: Record<K, Fn>, key: K, label: string) => {
    const original = owner[key];
    const slot = calls.get(label) ?? [];
    calls.set(label, slot);
    owner[key] = (...args: never[]) => {
      const t = performance.now();
      try {
        return Reflect.apply(original, owner, args) as unknown;
      } finally {
        slot.push({ at: performance.timeOrigin + t, ms: performance.now() - t });
      }
    };
    restores.push(() => {
      owner[key] = original;
    });
  };
  const instrument = ({ store }: Maestro) => {
    wrap(store, 'transact', 'store.transact (a commit, with the writes inside it)');
    wrap(store.logEntries, 'append', 'log_entries INSERT (RunLog: AgentTurn, LlmCall, ToolTurn, …)');
    wrap(store.events, 'append', 'events INSERT (store.publish: tool.finished, job.changed, …)');
    wrap(store.comments, 'undeliveredInterjections', 'interjection poll (SELECT comments)');
    wrap(store.jobs, 'heartbeat', 'heartbeat UPDATE');
    wrap(fs, 'writeSync', 'fs.writeSync (transcript lines)');
    wrap(fs, 'appendFileSync', 'fs.appendFileSync (transcript lines)');
    wrap(fs, 'fsyncSync', 'fs.fsyncSync');
    wrap(fs, 'fdatasyncSync', 'fs.fdatasyncSync');
    wrap(JSON, 'stringify', 'JSON.stringify (every caller: bodies, transcript lines, log bodies, events)');
  };
  const restore = () => {
    for (const r of restores.splice(0).reverse()) r();
  };
  return { calls, instrument, restore };
}

/**
 * A call's typical cost per iteration in the turns of `w`: the median of its calls there (a call the OS preempted does
 * not count as the call's cost) × how many ran there, over the window's iterations. Batched work (a commit every
 * 100 ms) counts at its share, not as zero.
 */
function typical(calls: readonly Call[], arrivals: readonly number[], w: TurnWindow): number {
  const from = arrivals[w.first - 1] as number;
  const to = arrivals[w.last] as number;
  const inside = calls.filter((c) => c.at >= from && c.at < to).map((c) => c.ms);
  return inside.length === 0 ? 0 : (median(inside) * inside.length) / (w.last - w.first + 1);
}

export async function breakdown(bench: Bench, replay: Replay): Promise<void> {
  gc();
  const raw = await runRaw(replay.bodies, replay.script);
  gc();
  const { calls, instrument, restore } = probe();
  const gcPauses: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcPauses.push(entry.duration);
  });
  observer.observe({ entryTypes: ['gc'] });
  const run = await runEngineJob(bench, LOOP_PIECE, replay.script, { instrument }).finally(() => {
    restore();
    observer.disconnect();
  });
  const engine = iterationTimes(run.arrivals);
  const rawTimes = iterationTimes(raw.arrivals);
  const overhead = engine.map((t, i) => t - (rawTimes[i] as number));
  const early = turnWindow(EARLY_TURN, engine.length);
  const late = turnWindow(LATE_TURN, engine.length);
  const whole: TurnWindow = { turn: 0, first: 1, last: engine.length };
  const column = (figures: readonly number[]) => figures.map((x) => x.toFixed(3).padStart(7)).join(' ');
  console.log(
    `where the engine's time goes (one instrumented job ${ms(run.ms)}, the raw SDK just before it ${ms(raw.ms)}); ` +
      `ms per iteration at turn ${early.turn}, at turn ${late.turn} and over all iterations:`,
  );
  const overheadColumn = [windowMedian(overhead, early), windowMedian(overhead, late), median(overhead)];
  console.log(`  ${column(overheadColumn)}  overhead per iteration (engine minus raw SDK, medians; instrumented)`);
  const rows = [...calls]
    .filter(([, c]) => c.length > 0)
    .map(([label, c]) => ({ label, c, figures: [early, late, whole].map((w) => typical(c, run.arrivals, w)) }));
  for (const { label, c, figures } of rows.sort((x, y) => (y.figures[2] as number) - (x.figures[2] as number))) {
    console.log(
      `  ${column(figures)}  ${label}: ${(c.length / engine.length).toFixed(2)} calls per iteration, median ` +
        `${(1000 * median(c.map((x) => x.ms))).toFixed(0)} µs`,
    );
  }
  const gcMs = gcPauses.reduce((a, b) => a + b, 0);
  console.log(
    `  GC during the job: ${gcPauses.length} pauses, ${ms(gcMs)} (${msPrecise(gcMs / engine.length)} per iteration, ` +
      'counted inside whichever call above it interrupted); the rest of the overhead is the LLM layer around the SDK, ' +
      'events, tool dispatch',
  );
}

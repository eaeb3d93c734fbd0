// Benchmark: the Piece engine against the raw `openai` SDK, both talking to the project's scripted OpenAI-compatible
// server (zero model latency), so what is measured is the engine's own cost per iteration.
//
// The scripted servers run in a child process of their own, as a model server does: this process is not charged for
// the server's work, and what the engine does while its request is in flight overlaps the server's, as it does with a
// real model. --in-process runs them in this process instead (server, SDK and engine then share one thread).
//
// Engine side: a real job through createMaestro → Worker → createEngine → runPiece: 200 LLM iterations (199 calls of
// a read-only test tool with distinct arguments, then `complete`) on a workspace piece, timed from createTask to the
// job's terminal event on an app that has already run one short job (as a user's open app has). Baseline: the raw
// SDK sending the very request bodies the engine sent (replayed from the server's record), streamed and consumed,
// back to back, after one untimed request on the same client. The SDK serializes each body whole, as its callers'
// requests are; the engine serializes each message once (llm/body-encoder.ts), which its append-only conversation
// allows — part of what is measured.
// Rounds alternate the order; the figure quoted is the median of the per-round ratios engine time / raw time.
//
// Prefix reuse (spec 3.1–3.4): for each request after the first, the share of the previous request's serialized
// prompt (JSON.stringify(tools) + JSON.stringify(messages), the order a backend tokenizes it in) that is an exact
// prefix of the next one — over a one-movement job and over a job that switches movements every 20 iterations.
//
// When the ratio misses its target (or with --breakdown), one more, instrumented, engine job shows where the time goes.
//
// Run: npx tsx bench/engine.ts [--rounds N] [--iterations N] [--breakdown] [--in-process]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { z } from 'zod';
import { createMaestro, type Maestro } from '../src-main/app/create-maestro';
import { createEngine } from '../src-main/engine/engine';
import { DEFAULT_LIMITS } from '../src-main/engine/job-run';
import type { ToolDef } from '../src-main/tools/types';
import { type ChatRequestBody, type ScriptedStep, startScriptedLlmServer } from '../test-support/scripted-llm-server';
import { ScriptedLlmServerHost } from '../test-support/scripted-llm-server-host';

const RATIO_TARGET = 1.1;
const PREFIX_TARGET = 0.99;
const TRANSITION_EVERY = 20;
const PIECES_DIR = path.resolve(__dirname, '..', 'pieces');

function argNumber(name: string, fallback: number, min: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be an integer ≥ ${min}`);
  return value;
}
const ROUNDS = argNumber('rounds', 21, 1);
const ITERATIONS = argNumber('iterations', 200, 2);
const IN_PROCESS = process.argv.includes('--in-process');

// ---- the scripted servers ---------------------------------------------------------------------------------------

interface BenchServer {
  baseURL: string;
  /** Closes the server; the bodies of the requests it received. Throws when the script was not played exactly. */
  close(): Promise<string[]>;
}

let host: ScriptedLlmServerHost | undefined;

async function serve(script: ScriptedStep[]): Promise<BenchServer> {
  if (IN_PROCESS) {
    const server = await startScriptedLlmServer({ script });
    return {
      baseURL: server.baseURL,
      close: async () => {
        await server.close();
        server.expectEmpty();
        return server.requests.map((r) => r.rawBody);
      },
    };
  }
  host ??= await ScriptedLlmServerHost.start();
  const server = await host.serve(script);
  return {
    baseURL: server.baseURL,
    close: async () => {
      const { rawBodies, problems } = await server.close();
      if (problems.length > 0) throw new Error(`scripted-llm-server: ${problems.join('; ')}`);
      return rawBodies;
    },
  };
}

// ---- the workspace: two pieces ---------------------------------------------------------------------------------

const LOOP_PIECE = 'bench-loop';
const RELAY_PIECE = 'bench-relay';
const maxIterations = Math.max(250, ITERATIONS + 50);

const pieceYaml = {
  [LOOP_PIECE]: `id: ${LOOP_PIECE}
name: Bench loop
description: One movement that reads until it is done.
movements:
  - name: work
    description: Read files.
    max_iterations: ${maxIterations}
    guidance: |
      Read the files one by one with probe_file, then call complete.
`,
  [RELAY_PIECE]: `id: ${RELAY_PIECE}
name: Bench relay
description: Two movements that hand the work back and forth.
max_movements: 1000
revisit_limit: 1000
movements:
  - name: gather
    description: Read files.
    max_iterations: ${maxIterations}
    guidance: |
      Read files with probe_file; after a batch, call transition with next "check".
    transitions:
      - to: check
        when: a batch was read
  - name: check
    description: Check what was read.
    max_iterations: ${maxIterations}
    guidance: |
      Check the batch with probe_file; then call transition with next "gather", or complete when all is read.
    transitions:
      - to: gather
        when: another batch is needed
`,
};

function makeWorkspace(root: string): string {
  const workspace = path.join(root, 'workspace');
  const pieces = path.join(workspace, '.maestro', 'pieces');
  fs.mkdirSync(pieces, { recursive: true });
  for (const [id, yaml] of Object.entries(pieceYaml)) fs.writeFileSync(path.join(pieces, `${id}.yaml`), yaml);
  fs.writeFileSync(path.join(workspace, 'README.md'), '# bench workspace\n');
  return workspace;
}

// ---- the test tool and the scripts ----------------------------------------------------------------------------

/** Read-only, answers at once with a short string. */
const probeFile: ToolDef<{ path: string }> = {
  name: 'probe_file',
  description: 'Reads a small file of the workspace. Returns its first line.',
  parameters: z.strictObject({ path: z.string().min(1) }),
  readOnly: true,
  execute: async (args) => ({ kind: 'result', ok: true, content: `first line of ${args.path}: ok` }),
};

const probeCall = (i: number): ScriptedStep => ({
  toolCalls: [{ name: probeFile.name, arguments: { path: `src/module-${String(i).padStart(4, '0')}.ts` } }],
});
const completeCall: ScriptedStep = {
  toolCalls: [{ name: 'complete', arguments: { status: 'success', message: 'All files read.' } }],
};

/** `iterations` replies: distinct probe calls (the repeated-call guard never fires), then complete. */
function loopScript(iterations: number): ScriptedStep[] {
  return [...Array.from({ length: iterations - 1 }, (_, i) => probeCall(i)), completeCall];
}

/** The same, with a transition gather ⇄ check every TRANSITION_EVERY replies. */
function relayScript(iterations: number): ScriptedStep[] {
  const steps: ScriptedStep[] = [];
  let inGather = true;
  for (let i = 0; i < iterations - 1; i++) {
    if ((i + 1) % TRANSITION_EVERY === 0) {
      const next = inGather ? 'check' : 'gather';
      steps.push({ toolCalls: [{ name: 'transition', arguments: { next, reason: `batch ${i} done` } }] });
      inGather = !inGather;
    } else steps.push(probeCall(i));
  }
  steps.push(completeCall);
  return steps;
}

// ---- engine side -----------------------------------------------------------------------------------------------

/** Wall-clock ms and this process's CPU ms (user + system): the server, the SDK and the engine all run in it. */
interface Timing {
  ms: number;
  cpuMs: number;
}

const clock = () => ({ wall: performance.now(), cpu: process.cpuUsage() });
function since(start: ReturnType<typeof clock>): Timing {
  const cpu = process.cpuUsage(start.cpu);
  return { ms: performance.now() - start.wall, cpuMs: (cpu.user + cpu.system) / 1000 };
}

interface EngineRun extends Timing {
  bodies: string[];
  events: number;
}

/** A short job run first on the same app, so that the measured job finds it as a user's running app has it. */
const WARM_UP_SCRIPT: ScriptedStep[] = [probeCall(9999), completeCall];

/**
 * One measured engine job on a started app: createMaestro, one warm-up job (piece catalog parsed, statements and code
 * paths warm — what the app's first job pays once, not every job), then the measured job from createTask until the
 * job's terminal job.changed event.
 */
async function runEngineJob(
  root: string,
  workspace: string,
  pieceId: string,
  script: ScriptedStep[],
  instrument?: (maestro: Maestro) => void,
) {
  const server = await serve([...WARM_UP_SCRIPT, ...script]);
  const dataDir = fs.mkdtempSync(path.join(root, 'data-'));
  const maestro = createMaestro({
    dataDir,
    piecesDir: PIECES_DIR,
    version: 'bench',
    defaultWorkspace: workspace,
    env: { MAESTRO_LLM_BASE_URL: server.baseURL, MAESTRO_LLM_MODEL: 'scripted', MAESTRO_LLM_API_KEY: 'sk-bench' },
    engine: ({ store, profiles }) =>
      createEngine({
        store,
        profiles,
        tools: () => [probeFile],
        options: { limits: DEFAULT_LIMITS },
        llm: { log: () => {} },
      }),
  });
  let events = 0;
  const runJob = async (instruction: string, piece: string) => {
    let jobId = '';
    let settle: (status: string) => void = () => {};
    const settled = new Promise<string>((resolve) => {
      settle = resolve;
    });
    const unsubscribe = maestro.store.subscribe((event) => {
      events++;
      if (event.type !== 'job.changed' || event.jobId !== jobId) return;
      const { status } = event.job;
      if (status !== 'queued' && status !== 'running') settle(status);
    });
    ({
      job: { id: jobId },
    } = maestro.invoke('createTask', { instruction, pieceId: piece }));
    const status = await settled;
    unsubscribe();
    if (status !== 'succeeded') {
      const job = maestro.store.jobs.get(jobId);
      throw new Error(`the engine job ended ${status}: ${JSON.stringify(job?.error ?? job)}`);
    }
  };
  try {
    maestro.start();
    await runJob('Warm up.', LOOP_PIECE);
    instrument?.(maestro);
    events = 0;
    const started = clock();
    await runJob('Read every file of the workspace.', pieceId);
    const timing = since(started);
    await maestro.close();
    const bodies = (await server.close()).slice(WARM_UP_SCRIPT.length);
    return { ...timing, bodies, events } satisfies EngineRun;
  } finally {
    await maestro.close();
    await server.close().catch(() => {}); // after a failure: the failure is the news
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---- raw SDK side ----------------------------------------------------------------------------------------------

async function runRaw(bodies: readonly ChatRequestBody[], script: ScriptedStep[]): Promise<Timing> {
  const server = await serve([probeCall(9999), ...script]);
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-bench', maxRetries: 0 });
  const send = async (body: ChatRequestBody) => {
    const stream = await client.chat.completions.create({
      ...(body as unknown as ChatCompletionCreateParamsStreaming),
      stream: true,
    });
    let args = '';
    for await (const chunk of stream) {
      for (const call of chunk.choices[0]?.delta.tool_calls ?? []) args += call.function?.arguments ?? '';
    }
    return args.length;
  };
  try {
    // Like the engine's warm-up job: the connection is open and the code paths warm before the clock starts.
    await send(bodies[0] as ChatRequestBody);
    const started = clock();
    let received = 0;
    for (const body of bodies) received += await send(body);
    const timing = since(started);
    await server.close();
    if (received === 0) throw new Error('the raw SDK received no tool calls');
    return timing;
  } finally {
    await server.close().catch(() => {});
  }
}

// ---- where the engine's time goes -------------------------------------------------------------------------------

interface Timed {
  calls: number;
  ms: number;
  each: number[];
}

/**
 * Times the engine's per-iteration side work by wrapping, for one job, the repository methods and the functions the
 * engine calls (the code under test is not changed, only observed): log_entries and events INSERTs, the interjection
 * poll, the transcript writes.
 */
function breakdownProbe(): {
  instrument: (maestro: Maestro) => void;
  restore: () => void;
  timings: Map<string, Timed>;
} {
  const timings = new Map<string, Timed>();
  const restores: (() => void)[] = [];
  // biome-ignore lint/suspicious/noExplicitAny: wraps functions of any signature.
  const wrap = <T extends Record<K, (...args: any[]) => any>, K extends keyof T & string>(
    owner: T,
    key: K,
    label: string,
  ) => {
    const original = owner[key];
    const slot = timings.get(label) ?? { calls: 0, ms: 0, each: [] };
    timings.set(label, slot);
    owner[key] = ((...args: unknown[]) => {
      const t = performance.now();
      try {
        return original.apply(owner, args);
      } finally {
        const took = performance.now() - t;
        slot.calls++;
        slot.ms += took;
        slot.each.push(took);
      }
    }) as T[K];
    restores.push(() => {
      owner[key] = original;
    });
  };
  return {
    timings,
    instrument(maestro) {
      const { store } = maestro;
      wrap(store.logEntries, 'append', 'log_entries INSERT (RunLog: AgentTurn, LlmCall, ToolTurn, …)');
      wrap(
        store.events,
        'append',
        'events INSERT (store.publish: TurnStart, LlmCallStart/End, TurnEnd, tool.finished)',
      );
      wrap(store.comments, 'undeliveredInterjections', 'interjection poll (SELECT comments)');
      wrap(store.jobs, 'heartbeat', 'heartbeat UPDATE');
      wrap(fs, 'writeSync', 'fs.writeSync (transcript lines: one write per iteration)');
    },
    restore: () => {
      for (const r of restores.splice(0).reverse()) r();
    },
  };
}

async function breakdown(
  root: string,
  workspace: string,
  script: ScriptedStep[],
  bodies: readonly ChatRequestBody[],
): Promise<void> {
  gc();
  const raw = await runRaw(bodies, script);
  gc();
  const probe = breakdownProbe();
  const gcPauses: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcPauses.push(entry.duration);
  });
  observer.observe({ entryTypes: ['gc'] });
  let run: EngineRun;
  try {
    run = await runEngineJob(root, workspace, LOOP_PIECE, script, probe.instrument);
  } finally {
    probe.restore();
    observer.disconnect();
  }
  const gcMs = gcPauses.reduce((a, b) => a + b, 0);
  const overhead = run.ms - raw.ms;
  console.log(
    `  where the engine's extra time goes (one instrumented job ${ms(run.ms)}, CPU ${ms(run.cpuMs)}; raw SDK just ` +
      `before it ${ms(raw.ms)}, CPU ${ms(raw.cpuMs)}; extra ${(overhead / ITERATIONS).toFixed(2)} ms/iteration):`,
  );
  // Median × calls: a call the OS preempted (a busy machine) does not count as the call's cost.
  let accounted = 0;
  const rows = [...probe.timings].filter(([, t]) => t.calls > 0);
  for (const [label, t] of rows.sort((a, b) => median(b[1].each) * b[1].calls - median(a[1].each) * a[1].calls)) {
    const typical = (median(t.each) * t.calls) / ITERATIONS;
    accounted += typical;
    console.log(
      `    ${typical.toFixed(3).padStart(6)} ms/iteration  ${String(t.calls).padStart(5)} calls × median ` +
        `${(1000 * median(t.each)).toFixed(0).padStart(4)} µs (mean ${((1000 * t.ms) / t.calls).toFixed(0)})  ${label}`,
    );
  }
  console.log(
    `    ${accounted.toFixed(3).padStart(6)} ms/iteration  in all of the above; the rest of the extra is the LLM ` +
      'layer around the SDK (hooks, an AbortController per call, idle timers), events, tool dispatch and GC',
  );
  console.log(
    `    GC during the job: ${gcPauses.length} pauses, ${ms(gcMs)} (${(gcMs / ITERATIONS).toFixed(3)} ms/iteration, ` +
      'counted inside whichever call above it interrupted)',
  );
}

// ---- prefix reuse ----------------------------------------------------------------------------------------------

function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

interface PrefixReuse {
  shares: number[];
  /** Index (request number) of the worst share. */
  worstAt: number;
}

/** For each request after the first: common prefix with the previous serialized prompt / its length. */
function prefixReuse(rawBodies: readonly string[]): PrefixReuse {
  const prompts = rawBodies.map((raw) => {
    const body = JSON.parse(raw) as ChatRequestBody;
    return JSON.stringify(body.tools ?? []) + JSON.stringify(body.messages ?? []);
  });
  const shares: number[] = [];
  let worstAt = 1;
  for (let i = 1; i < prompts.length; i++) {
    const prev = prompts[i - 1] as string;
    const share = commonPrefixLength(prev, prompts[i] as string) / prev.length;
    if (share < (shares[worstAt - 1] ?? Number.POSITIVE_INFINITY)) worstAt = i;
    shares.push(share);
  }
  return { shares, worstAt };
}

// ---- figures ---------------------------------------------------------------------------------------------------

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
/** Rounded down, so that 99.996% never reads as 100%. */
const pct = (x: number) => `${(Math.floor(x * 10_000) / 100).toFixed(2)}%`;
const times = (x: number) => `${x.toFixed(2)}×`;
const ms = (x: number) => `${x.toFixed(0)} ms`;
// A full collection before each measured side, so that one side's garbage is not collected on the other's clock.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const loadAverage = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-bench-engine-'));
  try {
    const workspace = makeWorkspace(root);
    const loop = loopScript(ITERATIONS);
    const relay = relayScript(ITERATIONS);
    console.log(
      `engine bench: ${ITERATIONS} LLM iterations per job, ${ROUNDS} rounds, scripted server with zero model latency ` +
        `${IN_PROCESS ? 'in this process' : 'in a child process'}; ` +
        `load average ${loadAverage()} on ${os.availableParallelism()} cores`,
    );

    // Warm-up (JIT, module loading, SQLite), not counted; the first job's recorded bodies are what the raw SDK replays.
    const warm = await runEngineJob(root, workspace, LOOP_PIECE, loop);
    if (warm.bodies.length !== ITERATIONS)
      throw new Error(`expected ${ITERATIONS} requests, got ${warm.bodies.length}`);
    const bodies = warm.bodies.map((raw) => JSON.parse(raw) as ChatRequestBody);
    // A second pair: one job is not enough for V8 to settle the engine's hot paths (round 1 read high without it).
    await runRaw(bodies, loop);
    await runEngineJob(root, workspace, LOOP_PIECE, loop);
    await runRaw(bodies, loop);

    interface Round {
      engine: Timing;
      raw: Timing;
      ratio: number;
      cpuRatio: number;
      events: number;
    }
    const rounds: Round[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      let engine: EngineRun | undefined;
      let raw: Timing | undefined;
      const runEngine = async () => {
        gc();
        engine = await runEngineJob(root, workspace, LOOP_PIECE, loop);
      };
      const runBaseline = async () => {
        gc();
        raw = await runRaw(bodies, loop);
      };
      const engineFirst = r % 2 === 0;
      for (const step of engineFirst ? [runEngine, runBaseline] : [runBaseline, runEngine]) await step();
      if (!engine || !raw) throw new Error('a side of the round did not run');
      const round = {
        engine,
        raw,
        ratio: engine.ms / raw.ms,
        cpuRatio: engine.cpuMs / raw.cpuMs,
        events: engine.events,
      };
      rounds.push(round);
      console.log(
        `  round ${r + 1} (${engineFirst ? 'engine first' : 'raw first'}): engine ${ms(engine.ms)}, ` +
          `raw SDK ${ms(raw.ms)}, ratio ${times(round.ratio)}, overhead ` +
          `${((engine.ms - raw.ms) / ITERATIONS).toFixed(2)} ms/iteration; CPU time ${ms(engine.cpuMs)} vs ` +
          `${ms(raw.cpuMs)}, ratio ${times(round.cpuRatio)}`,
      );
    }
    const ratio = median(rounds.map((x) => x.ratio));
    const cpuRatio = median(rounds.map((x) => x.cpuRatio));
    const engineMedian = median(rounds.map((x) => x.engine.ms));
    const rawMedian = median(rounds.map((x) => x.raw.ms));

    // Prefix reuse: the warm-up's one-movement job, and a job that changes movement every TRANSITION_EVERY replies.
    const relayRun = await runEngineJob(root, workspace, RELAY_PIECE, relay);
    const transitionsAt = relay.flatMap((s, i) =>
      'toolCalls' in s && s.toolCalls?.[0]?.name === 'transition' ? [i + 1] : [],
    );
    const loopReuse = prefixReuse(warm.bodies);
    const relayReuse = prefixReuse(relayRun.bodies);
    const afterTransition = transitionsAt.map((i) => relayReuse.shares[i - 1] as number);
    const all = [...loopReuse.shares, ...relayReuse.shares];

    console.log('');
    console.log(
      `engine vs raw SDK: median ratio ${times(ratio)} (target ≤ ${times(RATIO_TARGET)}) ` +
        `[rounds: ${rounds.map((x) => times(x.ratio)).join(', ')}] ` +
        `${ratio <= RATIO_TARGET ? 'OK' : 'MISSED'}`,
    );
    console.log(
      `  medians: engine ${ms(engineMedian)}, raw SDK ${ms(rawMedian)}; engine overhead ` +
        `${((engineMedian - rawMedian) / ITERATIONS).toFixed(2)} ms per iteration; ` +
        `${median(rounds.map((x) => x.events))} events per job`,
    );
    console.log(
      `  CPU time (this process: ${IN_PROCESS ? 'server + client' : 'the client only'}) median ratio ${times(cpuRatio)} ` +
        `[rounds: ${rounds.map((x) => times(x.cpuRatio)).join(', ')}] — steadier than wall time on a busy machine`,
    );
    console.log(
      `prefix reuse: min ${pct(Math.min(...all))} median ${pct(median(all))} (target ≥ ${pct(PREFIX_TARGET)}) ` +
        `${Math.min(...all) >= PREFIX_TARGET ? 'OK' : 'MISSED'}`,
    );
    console.log(
      `  one movement (${LOOP_PIECE}): min ${pct(Math.min(...loopReuse.shares))} at request ` +
        `#${loopReuse.worstAt}, median ${pct(median(loopReuse.shares))}`,
    );
    console.log(
      `  with ${transitionsAt.length} transitions (${RELAY_PIECE}): min ${pct(Math.min(...relayReuse.shares))} at ` +
        `request #${relayReuse.worstAt}, median ${pct(median(relayReuse.shares))}; ` +
        `right after a transition: min ${pct(Math.min(...afterTransition))}`,
    );
    if (ratio > RATIO_TARGET || process.argv.includes('--breakdown')) await breakdown(root, workspace, loop, bodies);
    console.log(`load average at the end: ${loadAverage()}`);
    if (ratio > RATIO_TARGET || Math.min(...all) < PREFIX_TARGET) process.exitCode = 1;
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
    await host?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

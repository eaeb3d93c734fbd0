// One measured engine job: a real app (createMaestro → Worker → createEngine → runPiece) against a scripted server,
// timed from createTask to the job's terminal event, after one short warm-up job on the same app.

import fs from 'node:fs';
import path from 'node:path';
import { createMaestro, type Maestro } from '../../src-main/app/create-maestro';
import { createEngine } from '../../src-main/engine/engine';
import { DEFAULT_LIMITS } from '../../src-main/engine/job-run';
import { jobJournals } from '../../src-main/jobs/journal';
import type { ScriptedStep } from '../../test-support/scripted-llm-server';
import { acceptBenchSettings } from '../accept-settings';
import { clock, cpuNow, since, type Timing } from './figures';
import { probeFile, WARM_UP_SCRIPT } from './script';
import { type Served, serve } from './server';
import { LOOP_PIECE } from './workspace';

export interface Bench {
  /** A temp dir for the apps' data dirs. */
  root: string;
  workspace: string;
}

export interface EngineJobOptions {
  /** The scripted model's time to first token. */
  ttftMs?: number;
  /** Called after the warm-up job, before the measured one (the breakdown's probes). */
  instrument?: (maestro: Maestro) => void;
}

export interface EngineRun extends Timing, Served {
  /** Events the store published or emitted during the measured job. */
  events: number;
  /** This process's CPU ms at each LlmCallStart of the measured job: element k is request k's. */
  cpuMarks: number[];
}

export async function runEngineJob(
  bench: Bench,
  pieceId: string,
  script: ScriptedStep[],
  { ttftMs = 0, instrument }: EngineJobOptions = {},
): Promise<EngineRun> {
  const server = await serve([...WARM_UP_SCRIPT, ...script], ttftMs);
  const dataDir = fs.mkdtempSync(path.join(bench.root, 'data-'));
  const maestro = createMaestro({
    dataDir,
    piecesDir: path.resolve(__dirname, '..', '..', 'pieces'),
    version: 'bench',
    defaultWorkspace: bench.workspace,
    env: { MAESTRO_LLM_BASE_URL: server.baseURL, MAESTRO_LLM_MODEL: 'scripted', MAESTRO_LLM_API_KEY: 'sk-bench' },
    engine: ({ store, profiles }) =>
      createEngine({
        journals: jobJournals(store),
        profiles,
        tools: () => [probeFile],
        options: { limits: DEFAULT_LIMITS },
        llm: { log: () => {} },
      }),
  });
  acceptBenchSettings(maestro, bench.workspace);
  let events = 0;
  let cpuMarks: number[] = [];
  const runJob = async (instruction: string, piece: string) => {
    let jobId = '';
    let settle: (status: string) => void = () => {};
    const settled = new Promise<string>((resolve) => {
      settle = resolve;
    });
    const unsubscribe = maestro.store.subscribe((event) => {
      events++;
      if (event.type === 'LlmCallStart') cpuMarks.push(cpuNow());
      if (event.type !== 'job.changed' || event.jobId !== jobId) return;
      const { status } = event.job;
      if (status !== 'queued' && status !== 'running') settle(status);
    });
    // Titled, so no title request: the raw SDK makes none, and the scripted server has no reply for one.
    ({
      job: { id: jobId },
    } = maestro.invoke('createTask', { instruction, pieceId: piece, title: instruction }));
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
    cpuMarks = [];
    const started = clock();
    await runJob('Read every file of the workspace.', pieceId);
    const timing = since(started);
    await maestro.close();
    const served = await server.close();
    const warmUp = WARM_UP_SCRIPT.length;
    return {
      ...timing,
      bodies: served.bodies.slice(warmUp),
      arrivals: served.arrivals.slice(warmUp),
      replies: served.replies.slice(warmUp),
      events,
      cpuMarks,
    };
  } finally {
    await maestro.close();
    await server.close().catch(() => {}); // after a failure: the failure is the news
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

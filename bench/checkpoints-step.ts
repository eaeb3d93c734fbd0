// A step's cost with checkpoints against without (issue 22, target ≤ 1.2× on a 10-file repository): the same job —
// STEPS write_file steps, each against a model with 20 ms to first token — through the real app (createMaestro →
// Worker → createEngine with the built-in tools), once with the checkpoint service and once without, on a fresh copy
// of a 10-file git repository each time. Rounds alternate which goes first; the median ratio is quoted. The target is
// judged on the steps: the time from the model's first request to its last (each step's tool call, its checkpoint and
// the next model call), which is what a step costs; the whole job's ratio is printed beside it, with what the job's
// start (to the first request) and end (after the last) cost once per job.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMaestro } from '../src-main/app/create-maestro';
import { createEngine } from '../src-main/engine/engine';
import { DEFAULT_LIMITS } from '../src-main/engine/job-run';
import { jobJournals } from '../src-main/jobs/journal';
import { type ScriptedStep, startScriptedLlmServer } from '../test-support/scripted-llm-server';
import { acceptBenchSettings } from './accept-settings';

const STEPS = 12;
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const TTFT_MS = 20;

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

function tenFileRepo(root: string): string {
  const repo = fs.mkdtempSync(path.join(root, 'repo-'));
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: repo,
      stdio: 'pipe',
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: repo },
    });
  git('init', '-q', '-b', 'main');
  for (let i = 0; i < 10; i++) fs.writeFileSync(path.join(repo, `file-${i}.ts`), `export const n = ${i};\n`);
  git('add', '-A');
  git('-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', 'commit', '-q', '-m', 'start');
  return repo;
}

const script = (): ScriptedStep[] => [
  ...Array.from({ length: STEPS }, (_, i) => ({
    toolCalls: [
      {
        name: 'write_file',
        arguments: { path: `file-${i % 10}.ts`, content: `export const n = ${i * 100 + 1};\n` },
      },
    ],
  })),
  { toolCalls: [{ name: 'complete', arguments: { status: 'success', message: 'done' } }] },
];

interface JobTimes {
  /** From createTask to the job's end. */
  total: number;
  /** From the model's first request to its last: the STEPS steps. */
  steps: number;
}

/** One job of STEPS writes, with or without checkpoints. */
async function timeJob(root: string, checkpoints: boolean): Promise<JobTimes> {
  const repo = tenFileRepo(root);
  const server = await startScriptedLlmServer({ script: script(), ttftMs: TTFT_MS });
  const dataDir = fs.mkdtempSync(path.join(root, 'data-'));
  const maestro = createMaestro({
    dataDir,
    piecesDir: path.resolve(__dirname, '..', 'pieces'),
    version: 'bench',
    defaultWorkspace: repo,
    env: { MAESTRO_LLM_BASE_URL: server.baseURL, MAESTRO_LLM_MODEL: 'scripted', MAESTRO_LLM_API_KEY: 'sk-bench' },
    engine: ({ store, profiles, checkpoints: service }) =>
      createEngine({
        journals: jobJournals(store),
        profiles,
        options: { limits: DEFAULT_LIMITS, ...(checkpoints ? { checkpoints: service } : {}) },
        llm: { log: () => {} },
      }),
  });
  try {
    acceptBenchSettings(maestro, repo);
    maestro.start();
    const started = performance.now();
    const startedAt = performance.timeOrigin + started;
    const { job } = maestro.invoke('createTask', { instruction: 'Write the files.' });
    for (;;) {
      const now = maestro.store.jobs.get(job.id);
      if (now && now.status !== 'queued' && now.status !== 'running') {
        if (now.status !== 'succeeded') throw new Error(`the bench job ended ${now.status}: ${now.error}`);
        break;
      }
      await new Promise((r) => setTimeout(r, 2));
    }
    const total = performance.now() - started;
    if (checkpoints && maestro.store.checkpoints.listForJob(job.id).length < STEPS) {
      throw new Error('the job took fewer checkpoints than it made steps');
    }
    const first = server.requests[0]?.receivedAt ?? startedAt;
    const last = server.requests.at(-1)?.receivedAt ?? first;
    return { total, steps: last - first };
  } finally {
    await maestro.close();
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(repo, { recursive: true, force: true });
  }
}

/** Prints the median ratio and each round's; returns whether it meets the target. */
export async function measureStepOverhead(): Promise<boolean> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-bench-step-'));
  try {
    await timeJob(root, true); // warm-up: module loading, the first git
    const stepRatios: number[] = [];
    const jobRatios: number[] = [];
    const on: JobTimes[] = [];
    const off: JobTimes[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const first = r % 2 === 0;
      const a = await timeJob(root, first);
      const b = await timeJob(root, !first);
      const [withCp, without] = first ? [a, b] : [b, a];
      on.push(withCp);
      off.push(without);
      stepRatios.push(withCp.steps / without.steps);
      jobRatios.push(withCp.total / without.total);
    }
    const ratio = median(stepRatios);
    const m = (xs: JobTimes[], k: keyof JobTimes) => median(xs.map((x) => x[k]));
    const per = (m(on, 'steps') - m(off, 'steps')) / STEPS;
    const once = m(on, 'total') - m(on, 'steps') - (m(off, 'total') - m(off, 'steps'));
    console.log(
      `step overhead (${STEPS} write_file steps at ${TTFT_MS} ms TTFT, 10-file git repository, medians of ${ROUNDS}): ` +
        `the steps with checkpoints ${m(on, 'steps').toFixed(0)} ms, without ${m(off, 'steps').toFixed(0)} ms, ` +
        `${ratio.toFixed(2)}× (target ≤ 1.2×), ${per.toFixed(1)} ms per step ` +
        `[rounds: ${stepRatios.map((x) => `${x.toFixed(2)}×`).join(', ')}] ${ratio <= 1.2 ? 'OK' : 'MISSED'}`,
    );
    console.log(
      `  the whole job: with checkpoints ${m(on, 'total').toFixed(0)} ms, without ${m(off, 'total').toFixed(0)} ms, ` +
        `${median(jobRatios).toFixed(2)}×; the job's start and end cost ${once.toFixed(0)} ms more once per job ` +
        `(opening the checkpoints, the last seal, the workspace commit)`,
    );
    return ratio <= 1.2;
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

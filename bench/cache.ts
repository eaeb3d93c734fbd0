// Benchmark against a real OpenAI-compatible backend (P5.21): how much of each prompt the backend reports as cached
// (usage.prompt_tokens_details.cached_tokens) right after a movement transition and right after a Continue — the two
// places where the cache-friendly layout of spec 3.1–3.4 has to keep the prefix of the previous request.
//
// A real task runs through the engine on a two-movement piece in a small temporary workspace: it looks at the files
// (list_dir), moves on with `transition`, and completes; then it is continued with a follow-up question. The model
// decides what it does: the figures say when it did not transition. Backends cache differently (OpenAI caches
// prompts of 1,024 tokens and more, in steps; llama.cpp and vLLM cache prefixes when prefix caching is on).
//
// Needs MAESTRO_LLM_BASE_URL (with MAESTRO_LLM_MODEL and MAESTRO_LLM_API_KEY as the backend wants); without it the
// bench says so and ends. --scripted runs it against the project's scripted server instead, whose cached tokens are
// the common prefix with the previous request (a quarter of its characters): what the tests run.
//
// Run: MAESTRO_LLM_BASE_URL=… MAESTRO_LLM_MODEL=… MAESTRO_LLM_API_KEY=… npx tsx bench/cache.ts [--scripted]

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMaestro, type Maestro } from '../src-main/app/create-maestro';
import { createEngine } from '../src-main/engine/engine';
import { jobJournals } from '../src-main/jobs/journal';
import type { ScriptedStep } from '../test-support/scripted-llm-server';
import { startScriptedLlmServer } from '../test-support/scripted-llm-server';
import { acceptBenchSettings } from './accept-settings';

const PIECE = 'cache-bench';
const PIECES_DIR = path.resolve(__dirname, '..', 'pieces');
const JOB_TIMEOUT_MS = 10 * 60_000;

const pieceYaml = `id: ${PIECE}
name: Cache bench
description: Looks at the workspace, then answers.
movements:
  - name: look
    description: Look at the workspace.
    tools: [list_dir]
    edit: false
    max_iterations: 6
    guidance: |
      Call list_dir once with path ".", then call transition with next "answer".
    transitions:
      - to: answer
        when: the files were listed
  - name: answer
    description: Answer.
    tools: [read_file]
    edit: false
    max_iterations: 6
    guidance: |
      Call complete with status "success" and one sentence that names the files.
`;

/** What the scripted server answers: the task's three replies, then the Continue's one. */
export const SCRIPT: ScriptedStep[] = [
  { toolCalls: [{ name: 'list_dir', arguments: { path: '.' } }] },
  { toolCalls: [{ name: 'transition', arguments: { next: 'answer', reason: 'listed' } }] },
  { toolCalls: [{ name: 'complete', arguments: { status: 'success', message: 'README.md and notes.md.' } }] },
  { toolCalls: [{ name: 'complete', arguments: { status: 'success', message: 'It is a small bench workspace.' } }] },
];

interface CallFigure {
  /** LlmCall number in the task, from 1. */
  n: number;
  jobId: string;
  promptTokens: number;
  cachedPromptTokens: number;
}

export interface CacheFigures {
  calls: CallFigure[];
  /** The first LlmCall after a transition's result, if the model transitioned. */
  afterTransition: CallFigure | null;
  /** The first LlmCall of the Continue job. */
  afterContinue: CallFigure | null;
}

function makeWorkspace(root: string): string {
  const workspace = path.join(root, 'workspace');
  fs.mkdirSync(path.join(workspace, '.maestro', 'pieces'), { recursive: true });
  fs.writeFileSync(path.join(workspace, '.maestro', 'pieces', `${PIECE}.yaml`), pieceYaml);
  fs.writeFileSync(path.join(workspace, 'README.md'), '# A small workspace\n\nUsed by the cache bench.\n');
  fs.writeFileSync(path.join(workspace, 'notes.md'), 'Nothing to see here.\n');
  return workspace;
}

/** Resolves with the job's status once it is no longer queued or running. */
function settled(maestro: Maestro, jobId: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`job ${jobId} did not end within ${JOB_TIMEOUT_MS / 60_000} minutes`));
    }, JOB_TIMEOUT_MS);
    const off = maestro.store.subscribe((event) => {
      if (event.type !== 'job.changed' || event.jobId !== jobId) return;
      if (event.job.status === 'queued' || event.job.status === 'running') return;
      clearTimeout(timer);
      off();
      resolve(event.job.status);
    });
  });
}

/** Runs the task and its Continue against `env`'s backend; the usage of every LlmCall, and the two that matter. */
export async function measureCache(env: Record<string, string | undefined>): Promise<CacheFigures> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-bench-cache-'));
  const maestro = createMaestro({
    dataDir: path.join(root, 'data'),
    piecesDir: PIECES_DIR,
    version: 'bench',
    defaultWorkspace: makeWorkspace(root),
    env,
    // The engine of the app, without its `prompt_cache` debug line per LlmCall (the bench prints its own).
    engine: ({ store, profiles }) => createEngine({ journals: jobJournals(store), profiles, llm: { log: () => {} } }),
  });
  try {
    acceptBenchSettings(maestro, maestro.ctx.defaultWorkspace as string);
    maestro.start();
    const { task, job } = maestro.invoke('createTask', {
      instruction: 'Find out which files the workspace has.',
      pieceId: PIECE,
    });
    const first = await settled(maestro, job.id);
    if (first !== 'succeeded')
      throw new Error(`the task's job ended ${first}: ${maestro.store.jobs.get(job.id)?.error}`);
    const { job: next } = maestro.invoke('continueTask', {
      taskId: task.id,
      instruction: 'Now say in one sentence what README.md is for, and complete.',
    });
    const second = await settled(maestro, next.id);
    if (second !== 'succeeded')
      throw new Error(`the Continue ended ${second}: ${maestro.store.jobs.get(next.id)?.error}`);
    return figures(maestro, task.id, next.id);
  } finally {
    await maestro.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

function figures(maestro: Maestro, taskId: string, continueJobId: string): CacheFigures {
  const calls: CallFigure[] = [];
  const turnOfCall: number[] = []; // AgentTurn seq of each call, in order
  for (const invoke of maestro.store.logEntries.usage(taskId).invokes) {
    for (const turn of invoke.agentTurns) {
      for (const call of turn.llmCalls) {
        calls.push({ n: calls.length + 1, jobId: invoke.jobId, ...call.usage });
        turnOfCall.push(turn.seq);
      }
    }
  }
  // The transition's ToolTurn, then the first AgentTurn after it.
  const entries = maestro.store.logEntries.listForTask(taskId);
  const transition = entries.find(
    (e) => e.kind === 'ToolTurn' && (e.body as { name?: string } | null)?.name === 'transition',
  );
  const at = transition ? turnOfCall.findIndex((seq) => seq > transition.seq) : -1;
  return {
    calls,
    afterTransition: at >= 0 ? (calls[at] ?? null) : null,
    afterContinue: calls.find((c) => c.jobId === continueJobId) ?? null,
  };
}

const pct = (part: number, whole: number) => (whole > 0 ? `${((100 * part) / whole).toFixed(1)}%` : 'n/a');

/** The call's cached share of its own prompt, and of the previous call's prompt (what it could reuse). */
function line(c: CallFigure, calls: readonly CallFigure[]): string {
  const previous = calls[c.n - 2];
  return (
    `LlmCall #${c.n}: ${c.cachedPromptTokens} of ${c.promptTokens} prompt tokens cached ` +
    `(${pct(c.cachedPromptTokens, c.promptTokens)})` +
    (previous
      ? `, ${pct(c.cachedPromptTokens, previous.promptTokens)} of the previous request's ${previous.promptTokens}`
      : '')
  );
}

async function main(): Promise<void> {
  let env: Record<string, string | undefined> = process.env;
  let close = async () => {};
  if (process.argv.includes('--scripted')) {
    const server = await startScriptedLlmServer({ script: SCRIPT });
    env = { MAESTRO_LLM_BASE_URL: server.baseURL, MAESTRO_LLM_MODEL: 'scripted', MAESTRO_LLM_API_KEY: 'sk-bench' };
    close = () => server.close();
  } else if (!env.MAESTRO_LLM_BASE_URL) {
    console.log(
      'cache bench: no backend — set MAESTRO_LLM_BASE_URL (and MAESTRO_LLM_MODEL, MAESTRO_LLM_API_KEY) to measure a ' +
        'real one, or pass --scripted for the project scripted server',
    );
    return;
  }
  try {
    const result = await measureCache(env);
    console.log(`cache bench against ${env.MAESTRO_LLM_BASE_URL} (model ${env.MAESTRO_LLM_MODEL ?? 'default'}):`);
    const { calls, afterTransition, afterContinue } = result;
    for (const c of calls) console.log(`  ${line(c, calls)}${c.jobId === calls[0]?.jobId ? '' : ' (Continue)'}`);
    console.log(
      `right after the transition: ${afterTransition ? line(afterTransition, calls) : 'the model did not transition'}`,
    );
    console.log(`right after the Continue: ${afterContinue ? line(afterContinue, calls) : 'no LlmCall'}`);
  } finally {
    await close();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

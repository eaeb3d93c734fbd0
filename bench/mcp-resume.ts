// MCP resume benchmark (issue 27 point 3): how long a job that waited for a person takes, after the answer, to make
// its first model request, in a workspace with five stdio MCP servers — with its servers kept while it waited (the
// product's default), against the same servers started afresh for the resume (kept sessions off), and against a
// workspace with no MCP server at all (the floor), each in the same run. Target: kept ≤ 500 ms.
//
// Each round is a real job through createMaestro → Worker → engine against the scripted model: it asks, parks, is
// answered with a comment, and on resume calls one server's tool and completes. The time is the comment's acceptance
// to the resumed request's arrival at the model server. Rounds alternate the order of the setups; medians are quoted.
//
// Run: npm run bench:mcp-resume [-- --rounds N]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { createMaestro, type Maestro } from '../src-main/app/create-maestro';
import { saveSettings } from '../src-main/app/settings-operations';
import { stdioServerEntry, writeMcpConfig } from '../test-support/mcp-fixtures';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../test-support/scripted-llm-server';
import { acceptBenchSettings } from './accept-settings';
import { quietEngine } from './quiet-engine';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
const ROUNDS = Number(values.rounds);
const TARGET_MS = 500;
const SERVERS = ['one', 'two', 'three', 'four', 'five'];

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-bench-mcp-resume-'));
const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

type Setup = 'kept' | 'restarted' | 'no MCP';

interface Bench {
  setup: Setup;
  maestro: Maestro;
  server: ScriptedLlmServer;
}

async function open(setup: Setup): Promise<Bench> {
  const workspace = fs.mkdtempSync(path.join(root, 'ws-'));
  if (setup !== 'no MCP')
    writeMcpConfig(
      workspace,
      Object.fromEntries(SERVERS.map((name) => [name, stdioServerEntry(path.join(workspace, `${name}.pids`))])),
    );
  const server = await startScriptedLlmServer();
  const maestro = createMaestro({
    dataDir: fs.mkdtempSync(path.join(root, 'data-')),
    piecesDir: path.resolve(__dirname, '..', 'pieces'),
    version: 'bench',
    defaultWorkspace: workspace,
    pieceRouter: false,
    // As the tests run stdio servers: the bench times the resume, not the sandbox's start.
    sandbox: { ok: false, reason: 'the MCP resume bench runs its servers as they are' },
    env: { MAESTRO_LLM_BASE_URL: server.baseURL, MAESTRO_LLM_MODEL: 'scripted', MAESTRO_LLM_API_KEY: 'sk-bench' },
    engine: quietEngine,
  });
  const { settings } = maestro.invoke('getSettings', {});
  if (setup === 'restarted')
    saveSettings(maestro.ctx, { ...settings, mcpSessions: { keepIdleMinutes: 0, keepSessions: 8 } });
  acceptBenchSettings(maestro, workspace);
  maestro.start();
  return { setup, maestro, server };
}

async function until(test: () => boolean): Promise<void> {
  while (!test()) await sleep(2);
}

/** One job: ask → park → answer → (resume) a tool call → complete. The answer's acceptance to the resumed request. */
async function round({ setup, maestro, server }: Bench, i: number): Promise<number> {
  const tool = setup === 'no MCP' ? 'list_dir' : 'mcp__one__add';
  server.push(
    { toolCalls: [{ name: 'complete', arguments: { status: 'needs_user_input', message: 'Which number?' } }] },
    { toolCalls: [{ name: tool, arguments: setup === 'no MCP' ? { path: '.' } : { a: 20, b: 22 } }] },
    { toolCalls: [{ name: 'complete', arguments: { status: 'success', message: '42' } }] },
  );
  const before = server.requests.length;
  const { task, job } = maestro.invoke('createTask', { instruction: `Add two numbers (${i}).`, title: `r${i}` });
  await until(() => maestro.store.jobs.get(job.id)?.status === 'waiting_human');
  await maestro.worker?.idle();
  const answered = Date.now();
  maestro.invoke('addComment', { taskId: task.id, body: '20 and 22' });
  await until(() => server.requests.length >= before + 2);
  const resumedAfter = (server.requests[before + 1]?.receivedAt ?? Number.NaN) - answered;
  await until(() => server.requests.length >= before + 3);
  await until(() => maestro.store.jobs.listForTask(task.id).every((j) => j.status === 'succeeded'));
  await maestro.worker?.idle();
  return resumedAfter;
}

async function main() {
  const setups: Setup[] = ['kept', 'restarted', 'no MCP'];
  const benches = await Promise.all(setups.map(open));
  const times = new Map<Setup, number[]>(setups.map((s) => [s, []]));
  // A first job per setup warms the SDK, the servers' module cache and SQLite; it is not counted.
  for (const bench of benches) await round(bench, -1);
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 ? [...benches].reverse() : benches;
    for (const bench of order) times.get(bench.setup)?.push(await round(bench, r));
  }
  for (const bench of benches) {
    await bench.maestro.close();
    await bench.server.close();
  }
  fs.rmSync(root, { recursive: true, force: true });

  const kept = median(times.get('kept') ?? []);
  const restarted = median(times.get('restarted') ?? []);
  const floor = median(times.get('no MCP') ?? []);
  console.log(`answer → first model request of the resumed job, medians of ${ROUNDS} rounds:`);
  for (const setup of setups) {
    const xs = times.get(setup) ?? [];
    console.log(
      `  ${setup.padEnd(30)} ${median(xs).toFixed(0).padStart(6)} ms   (rounds: ${xs.map((x) => x.toFixed(0)).join(', ')})`,
    );
  }
  console.log(
    `five MCP servers kept: ${kept.toFixed(0)} ms (target ≤ ${TARGET_MS} ms) ${kept <= TARGET_MS ? 'OK' : 'MISSED'}; ` +
      `${(restarted / kept).toFixed(1)}× faster than starting them again, ${(kept / floor).toFixed(2)}× no MCP at all`,
  );
  if (kept > TARGET_MS) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

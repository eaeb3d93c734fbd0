// Scale benchmark (issue 28): how the host holds up as the work grows, every figure against a baseline measured in
// the same run. The model is the scripted server with a realistic 300 ms to first token and 60 tokens/s.
//
//   1. wall time of 8 and 32 jobs started together against one job alone (targets ≤ 1.2× and ≤ 1.5×);
//   2. the event loop's lag while 100 tasks are created in one burst over HTTP (with POST /tasks's latency) and while
//      32 jobs stream (targets p99 ≤ 20 ms, max ≤ 50 ms);
//   3. SSE delivery with 5 clients while 8 jobs stream: the model server's write of a chunk → its text at each client,
//      against a bare Node SSE server sending the same chunks to 5 clients (target p95 ≤ 50 ms);
//   4. database bytes per simple finished task after retention, and the file's size while tasks come and go at a
//      steady number (it stops growing when the number of tasks stops growing);
//   5. start-up and the first page of the task list at 10,000 finished tasks against an empty data dir, and what a
//      reconnect fetches (bench/scale-tasks.ts, run here in its own process so its start-ups are cold).
//
// Run: npm run bench:scale [-- --rounds N]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { createMaestro, type Maestro } from '../src-main/app/create-maestro';
import { type Bridge, startBridge } from '../src-main/bridge/server';
import type { ScriptEntry, ScriptedStep, SentChunk } from '../test-support/scripted-llm-server';
import { startScriptedLlmServer } from '../test-support/scripted-llm-server';
import { ScriptedLlmServerHost } from '../test-support/scripted-llm-server-host';
import { acceptBenchSettings } from './accept-settings';
import { quietEngine } from './quiet-engine';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' } } });
const ROUNDS = Number(values.rounds);
const TTFT_MS = 300;
/** 60 tokens/s: a 30-token answer streams for half a second, one token per chunk. */
const TOKENS = 30;
const TOKEN_MS = 1000 / 60;
const TOKEN = 'Lorem ';
const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);
const DAY_MS = 24 * 3600 * 1000;

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-bench-scale-'));
const workspace = fs.mkdtempSync(path.join(root, 'ws-'));

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const percentile = (xs: readonly number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] as number) : Number.NaN;
};
const ms = (n: number) => `${Math.round(n)} ms`;
const verdict = (ok: boolean) => (ok ? 'OK' : 'MISSED');

/** A job's one reply: TOKENS tokens at 60 tokens/s after the server's TTFT, then complete. */
const answer = (text = TOKEN.repeat(TOKENS)): ScriptEntry => ({
  text,
  textChunks: TOKENS,
  chunkDelayMs: TOKEN_MS,
  toolCalls: [{ name: 'complete', arguments: { status: 'success', message: 'Done.' } }],
});

/** Lateness of a 5 ms timer, sampled until stopped: what a click or a request waits for on this event loop. */
function lagSampler() {
  const interval = 5;
  const lags: number[] = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    lags.push(Math.max(0, now - last - interval));
    last = now;
  }, interval);
  return () => {
    clearInterval(timer);
    return { p99: percentile(lags, 99), max: Math.max(0, ...lags) };
  };
}

interface Host {
  maestro: Maestro;
  bridge: Bridge;
  token: string;
  close(): Promise<void>;
}

async function startHost(
  baseURL: string,
  concurrency: number,
  dataDir = fs.mkdtempSync(path.join(root, 'data-')),
): Promise<Host> {
  const maestro = createMaestro({
    dataDir,
    piecesDir: path.resolve(__dirname, '..', 'pieces'),
    version: 'bench',
    defaultWorkspace: workspace,
    pieceRouter: false,
    sandbox: { ok: false, reason: 'the scale bench runs no commands' },
    env: { MAESTRO_LLM_BASE_URL: baseURL, MAESTRO_LLM_MODEL: 'scripted', MAESTRO_LLM_API_KEY: 'sk-bench' },
    worker: { concurrency },
    engine: quietEngine,
  });
  acceptBenchSettings(maestro, workspace);
  maestro.start();
  const token = 'bench-token-0123456789abcdef';
  const bridge = await startBridge({ maestro, token });
  return {
    maestro,
    bridge,
    token,
    close: async () => {
      await bridge.close();
      await maestro.close();
    },
  };
}

/** Resolves when every job in `jobIds` has ended. */
function allEnded(maestro: Maestro, jobIds: readonly string[]): Promise<void> {
  const left = new Set(jobIds.filter((id) => !TERMINAL.has(maestro.store.jobs.get(id)?.status ?? '')));
  return new Promise((resolve) => {
    if (left.size === 0) return resolve();
    const off = maestro.store.subscribe((event) => {
      if (event.type !== 'job.changed' || !TERMINAL.has(event.job.status)) return;
      left.delete(event.job.id);
      if (left.size === 0) {
        off();
        resolve();
      }
    });
  });
}

/**
 * `n` tasks created at once (titled, so no title request), timed to the end of the last job. Each creation is a turn
 * of the event loop of its own, as each request or IPC call is: `n` of them in one synchronous loop would hold the
 * loop for what no caller can make it do (the burst of 100 over HTTP measures creations as they come).
 */
async function wall(host: Host, n: number): Promise<number> {
  const start = performance.now();
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    ids.push(host.maestro.invoke('createTask', { instruction: `Say hello ${i}.`, title: `t${i}` }).job.id);
    await new Promise((resolve) => setImmediate(resolve));
  }
  await allEnded(host.maestro, ids);
  return performance.now() - start;
}

async function concurrencyFigures() {
  // The model in a process of its own, as a model server is: the host is not charged for the server's streaming.
  const models = await ScriptedLlmServerHost.start();
  const replies = 1 + ROUNDS * (1 + 8 + 32) + 100;
  const server = await models.serve(
    Array.from({ length: replies }, () => answer() as ScriptedStep),
    { ttftMs: TTFT_MS },
  );
  const host = await startHost(server.baseURL, 32);
  await wall(host, 1); // warm-up
  const times: Record<1 | 8 | 32, number[]> = { 1: [], 8: [], 32: [] };
  let streaming = { p99: 0, max: 0 };
  for (let r = 0; r < ROUNDS; r++) {
    for (const n of [1, 8, 32] as const) {
      const stop = n === 32 ? lagSampler() : null;
      times[n].push(await wall(host, n));
      if (stop) {
        const lag = stop();
        streaming = { p99: Math.max(streaming.p99, lag.p99), max: Math.max(streaming.max, lag.max) };
      }
    }
    console.log(
      `  round ${r + 1}: 1 job ${ms(times[1].at(-1) ?? 0)}, 8 jobs ${ms(times[8].at(-1) ?? 0)}, 32 jobs ${ms(times[32].at(-1) ?? 0)}`,
    );
  }

  // A burst of 100 creations over HTTP, all sent at once; the loop's lag until the last job has ended.
  const stop = lagSampler();
  const posted: number[] = [];
  const jobIds = await Promise.all(
    Array.from({ length: 100 }, async (_, i) => {
      const t0 = performance.now();
      const res = await fetch(`${host.bridge.url}/api/local/tasks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ instruction: `Burst ${i}.`, title: `b${i}` }),
      });
      const body = (await res.json()) as { job: { id: string } };
      posted.push(performance.now() - t0);
      return body.job.id;
    }),
  );
  await allEnded(host.maestro, jobIds);
  const burst = stop();
  await host.close();
  await server.close();
  await models.stop();
  return { times, streaming, burst, posted };
}

// ---- SSE delivery ------------------------------------------------------------------------------------------------

const MARKER = /MRK\d{6}/g;
let markerSeq = 0;
/** One token per chunk, each with a marker of its own, all of one length (the server's even split keeps them whole). */
const markedText = () => Array.from({ length: TOKENS }, () => `MRK${String(++markerSeq).padStart(6, '0')} `).join('');

/** An SSE client that records when each marker first reached it. */
async function sseClient(url: string, headers: Record<string, string>, seen: Map<string, number>) {
  const controller = new AbortController();
  const res = await fetch(url, { headers, signal: controller.signal });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        const at = performance.timeOrigin + performance.now();
        for (const m of decoder.decode(value, { stream: true }).matchAll(MARKER))
          if (!seen.has(m[0])) seen.set(m[0], at);
      }
    } catch {
      // aborted at the end
    }
  })();
  return () => controller.abort();
}

function delivery(sent: ReadonlyMap<string, number>, clients: readonly Map<string, number>[]) {
  const latencies: number[] = [];
  let missing = 0;
  for (const [marker, at] of sent) {
    for (const seen of clients) {
      const got = seen.get(marker);
      if (got === undefined) missing++;
      else latencies.push(got - at);
    }
  }
  return { p50: percentile(latencies, 50), p95: percentile(latencies, 95), missing, count: latencies.length };
}

async function hostDelivery(clients: number, streams: number) {
  const sent = new Map<string, number>();
  const onChunk = (chunk: SentChunk) => {
    const content = typeof chunk.delta.content === 'string' ? chunk.delta.content : '';
    for (const m of content.matchAll(MARKER)) sent.set(m[0], chunk.sentAt);
  };
  const server = await startScriptedLlmServer({ ttftMs: TTFT_MS, script: [], onChunk });
  const host = await startHost(server.baseURL, 32);
  server.push(answer());
  await wall(host, 1); // warm-up
  sent.clear();
  const seen = Array.from({ length: clients }, () => new Map<string, number>());
  const stops = await Promise.all(
    seen.map((s) => sseClient(`${host.bridge.url}/api/local/events`, { authorization: `Bearer ${host.token}` }, s)),
  );
  await sleep(100);
  server.push(...Array.from({ length: streams }, () => answer(markedText())));
  await wall(host, streams);
  await sleep(200);
  for (const stop of stops) stop();
  await host.close();
  await server.close();
  return delivery(sent, seen);
}

/** The plainest path: a Node SSE server writing the same chunks, at the same pace, to `clients` bare clients. */
async function baselineDelivery(clients: number, streams: number) {
  const responses: http.ServerResponse[] = [];
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    res.write(': open\n\n');
    responses.push(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const seen = Array.from({ length: clients }, () => new Map<string, number>());
  const stops = await Promise.all(seen.map((s) => sseClient(url, {}, s)));
  await sleep(100);
  const sent = new Map<string, number>();
  await Promise.all(
    Array.from({ length: streams }, async () => {
      await sleep(TTFT_MS);
      for (const token of markedText().trim().split(' ')) {
        const at = performance.timeOrigin + performance.now();
        sent.set(token, at);
        for (const res of responses) res.write(`data: ${JSON.stringify({ text: `${token} ` })}\n\n`);
        await sleep(TOKEN_MS);
      }
    }),
  );
  await sleep(200);
  for (const stop of stops) stop();
  for (const res of responses) res.end();
  await new Promise((resolve) => server.close(resolve));
  return delivery(sent, seen);
}

// ---- storage -----------------------------------------------------------------------------------------------------

async function storageFigures() {
  const server = await startScriptedLlmServer({ script: [] });
  const host = await startHost(server.baseURL, 16);
  const { maestro } = host;
  const N = 300;
  server.push(...Array.from({ length: N }, () => answer('Hello there.')));
  await wall(host, N);
  const before = await maestro.ctx.upkeep.usage();
  await maestro.ctx.upkeep.run(Date.now() + 31 * DAY_MS);
  const after = await maestro.ctx.upkeep.usage();

  // Steady: 100 tasks deleted and 100 made, the upkeep after each turn; the file's size after each.
  const sizes: number[] = [];
  for (let turn = 0; turn < 4; turn++) {
    const oldest = maestro.store.tasks.list().slice(-100);
    for (const task of oldest) maestro.invoke('deleteTask', { taskId: task.id });
    server.push(...Array.from({ length: 100 }, () => answer('Hello there.')));
    await wall(host, 100);
    await maestro.ctx.upkeep.run(Date.now() + 31 * DAY_MS);
    sizes.push((await maestro.ctx.upkeep.usage()).database);
  }
  await host.close();
  await server.close();
  return { before, after, tasks: N, sizes };
}

async function main() {
  console.log(
    `scale bench: scripted model at ${TTFT_MS} ms to first token and 60 tokens/s (${TOKENS}-token answers), ` +
      `${ROUNDS} rounds; Node ${process.version}, ${os.cpus().length} cores, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
  );
  const { times, streaming, burst, posted } = await concurrencyFigures();
  const one = median(times[1]);
  const r8 = median(times[8]) / one;
  const r32 = median(times[32]) / one;
  console.log(
    `\njobs at once (the Worker at 32): 1 job ${ms(one)}; 8 jobs ${ms(median(times[8]))}, ${r8.toFixed(2)}× ` +
      `(target ≤ 1.2×) ${verdict(r8 <= 1.2)}; 32 jobs ${ms(median(times[32]))}, ${r32.toFixed(2)}× (target ≤ 1.5×) ${verdict(r32 <= 1.5)}`,
  );
  console.log(
    `event-loop lag while 100 tasks are created at once over HTTP and run: p99 ${ms(burst.p99)}, max ${ms(burst.max)} ` +
      `(targets ≤ 20 / ≤ 50 ms) ${verdict(burst.p99 <= 20 && burst.max <= 50)}; POST /tasks p50 ${ms(percentile(posted, 50))}, p99 ${ms(percentile(posted, 99))}`,
  );
  console.log(
    `event-loop lag while 32 jobs stream (worst round): p99 ${ms(streaming.p99)}, max ${ms(streaming.max)} ` +
      `(targets ≤ 20 / ≤ 50 ms) ${verdict(streaming.p99 <= 20 && streaming.max <= 50)}`,
  );

  // BENCH_SCALE_ONLY=jobs: the first part alone (to profile it).
  if (process.env.BENCH_SCALE_ONLY === 'jobs') return;
  const hostSse = await hostDelivery(5, 8);
  const bareSse = await baselineDelivery(5, 8);
  console.log(
    `SSE delivery, 5 clients while 8 jobs stream (model server's write → each client): p50 ${ms(hostSse.p50)}, ` +
      `p95 ${ms(hostSse.p95)} (target ≤ 50 ms) ${verdict(hostSse.p95 <= 50)}; ${hostSse.count} deliveries, ${hostSse.missing} missing`,
  );
  console.log(
    `  baseline, a bare Node SSE server to 5 clients: p50 ${ms(bareSse.p50)}, p95 ${ms(bareSse.p95)}; p95 ratio ${(hostSse.p95 / Math.max(1, bareSse.p95)).toFixed(2)}×`,
  );

  const storage = await storageFigures();
  const per = (bytes: number) => `${(bytes / storage.tasks / 1024).toFixed(1)} KB`;
  console.log(
    `storage per simple finished task (${storage.tasks} tasks): database ${per(storage.before.database)} before retention, ` +
      `${per(storage.after.database)} after (target ≤ 8 KB) ${verdict(storage.after.database / storage.tasks <= 8 * 1024)}; ` +
      `WAL ${per(storage.before.wal)} → ${per(storage.after.wal)}; transcripts ${per(storage.after.runs)}, checkpoints ${per(storage.after.checkpoints)}`,
  );
  const [first = 0, ...rest] = storage.sizes;
  const growth = Math.max(...rest.map((s) => s / first));
  console.log(
    `  ${storage.tasks} tasks kept while 100 are deleted and 100 made, 4 turns: database ${storage.sizes
      .map((s) => `${(s / 1024 / 1024).toFixed(2)} MB`)
      .join(', ')} — largest ${growth.toFixed(2)}× the first (flat: ≤ 1.05×) ${verdict(growth <= 1.05)}`,
  );
  fs.rmSync(root, { recursive: true, force: true });

  console.log('\nthe task list at 10,000 tasks (bench/scale-tasks.ts):');
  execFileSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'scale-tasks.ts')], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_ROUNDS: process.env.BENCH_ROUNDS ?? '7' },
  });
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});

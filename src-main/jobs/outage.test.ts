// A 60-second outage of the model server, at 1/40 scale: the job waits it out in `retry` (its wait growing, its
// attempts untouched) and then succeeds, with a bounded number of requests. Real SDK, real sockets, real SQLite.
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { complete, engineHarness } from '../../test-support/engine-harness';
import { startScriptedLlmServer } from '../../test-support/scripted-llm-server';
import { tempDir, testMaestro } from '../../test-support/temp-maestro';
import type { JobRecord } from '../db/repos/jobs';
import type { Store } from '../db/store';
import { LlmClient } from '../llm/client';
import { isLlmError } from '../llm/errors';
import { handlePieceResult } from './apply-result';
import { insertJob } from './job-writes';
import type { PieceRunResult } from './piece-run-result';
import { DEFAULT_OUTAGE_POLICY, DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy';

const SCALE = 40;
const OUTAGE_MS = 60_000 / SCALE;
const W = 'worker_outage';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A TCP relay on a fixed port to the model server: closed, nothing listens there (connection refused). */
class Relay {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  constructor(
    readonly port: number,
    private readonly target: number,
  ) {}

  static async onFreePort(target: number): Promise<Relay> {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as net.AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    return new Relay(port, target);
  }

  async open(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.target, '127.0.0.1');
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.server = server;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function seedJob(store: Store): JobRecord {
  const taskId = `task_outage_${Date.now()}`;
  store.tasks.insert({
    id: taskId,
    title: 't',
    instruction: 'answer',
    pieceId: 'default',
    workspacePath: tempDir(),
    workspaceKind: 'persistent',
    profile: null,
    parentTaskId: null,
    createdAt: Date.now(),
  });
  return insertJob(store, { taskId, pieceId: 'default', profile: null, pendingInvoke: 'UserSend' });
}

/** What the engine makes of a generation: the answer completes the job; an LlmError is a retryable error or not. */
async function runOnce(client: LlmClient): Promise<PieceRunResult> {
  try {
    const reply = await client.generate({ messages: [{ role: 'user', content: 'Say hello.' }] });
    return { kind: 'completed', result: reply.text };
  } catch (error) {
    if (!isLlmError(error)) throw error;
    const outage = error.outageMs === undefined ? {} : { outageMs: error.outageMs };
    return { kind: 'error', message: error.message, retryable: error.retryable, ...outage };
  }
}

describe('an outage of the model server', () => {
  it('of 60 s (1/40 scale) does not fail the task: it waits in retry with growing waits, then succeeds', async () => {
    const model = await startScriptedLlmServer({ script: [{ text: 'back again' }] });
    cleanups.push(() => model.close());
    const relay = await Relay.onFreePort(model.port);
    cleanups.push(() => relay.close());
    const { store } = testMaestro();
    const client = new LlmClient({
      profile: { name: 'local', baseURL: `http://127.0.0.1:${relay.port}/v1`, model: 'scripted', apiKey: '' },
      retry: { baseDelayMs: 1_000 / SCALE, maxDelayMs: 30_000 / SCALE },
      log: () => {},
    });
    const retry: RetryPolicy = {
      ...DEFAULT_RETRY_POLICY,
      outage: {
        baseDelayMs: DEFAULT_OUTAGE_POLICY.baseDelayMs / SCALE,
        maxDelayMs: DEFAULT_OUTAGE_POLICY.maxDelayMs / SCALE,
        giveUpAfterMs: DEFAULT_OUTAGE_POLICY.giveUpAfterMs,
      },
    };
    const job = seedJob(store);
    const started = Date.now();
    const serverBack = sleep(OUTAGE_MS).then(() => relay.open());

    const waits: number[] = [];
    let final: JobRecord | undefined;
    while (Date.now() - started < 20 * OUTAGE_MS) {
      const claimed = store.jobs.claimNext({ workerId: W, profiles: null });
      if (!claimed) {
        await sleep(5);
        continue;
      }
      const after = handlePieceResult(store, claimed, await runOnce(client), { workerId: W, retry });
      if (after?.status !== 'retry') {
        final = after;
        break;
      }
      expect(after.attempt).toBe(0);
      waits.push(Date.parse(after.nextRetryAt ?? '') - Date.now());
    }
    await serverBack;

    expect(final).toMatchObject({ id: job.id, status: 'succeeded', result: 'back again', attempt: 1 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(OUTAGE_MS);
    // The job waited in retry several times, each wait (jitter aside) at least half the one before.
    expect(waits.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < waits.length; i++) expect(waits[i] ?? 0).toBeGreaterThanOrEqual((waits[i - 1] ?? 0) / 2);
    expect(Math.max(...waits)).toBeGreaterThan(waits[0] ?? 0);
    // Two LlmCalls per wait at most, and the last run's: one more refused then the one that succeeded when the server
    // came back between them — bounded by the doubling, not by the outage's length.
    expect(client.llmCallCount).toBeLessThanOrEqual(2 * waits.length + 2);
    expect(client.llmCallCount).toBeLessThanOrEqual(14);
    expect(model.requests).toHaveLength(1);
  }, 30_000);

  it('of 60 s (1/40 scale) through the Worker and the engine: the task waits in retry, attempts untouched, then succeeds', async () => {
    const model = await startScriptedLlmServer({ script: [complete('back again')] });
    cleanups.push(() => model.close());
    const relay = await Relay.onFreePort(model.port);
    cleanups.push(() => relay.close());
    const h = await engineHarness([], {
      server: { ...model, baseURL: `http://127.0.0.1:${relay.port}/v1` },
      outage: {
        baseDelayMs: DEFAULT_OUTAGE_POLICY.baseDelayMs / SCALE,
        maxDelayMs: DEFAULT_OUTAGE_POLICY.maxDelayMs / SCALE,
        giveUpAfterMs: DEFAULT_OUTAGE_POLICY.giveUpAfterMs,
      },
    });
    const started = Date.now();
    const { jobId } = h.createTask('Say hello.');
    const serverBack = sleep(OUTAGE_MS).then(() => relay.open());
    const job = await h.waitFor(jobId, ['succeeded', 'failed', 'cancelled'], 20 * OUTAGE_MS);
    await serverBack;
    expect(job).toMatchObject({ status: 'succeeded', attempt: 1 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(OUTAGE_MS);
    const waits = h.events.filter((e) => e.type === 'job.changed' && e.jobId === jobId && e.job.status === 'retry');
    expect(waits.length).toBeGreaterThanOrEqual(2);
    expect(model.requests).toHaveLength(1);
    expect(h.maestro.invoke('getTask', { taskId: job.taskId }).comments.some((c) => c.kind === 'error')).toBe(false);
  }, 30_000);
});

// The model server as an attacker (issue 21): an endless stream, a trickle that never goes quiet, one 50 MB tool-call
// argument — each from a raw node:http server, read through the real openai SDK by a real job. The job ends failed
// with the limit named, not retried; memory stays bounded, the event loop responsive, nothing of the reply is kept.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { engineHarness } from '../../test-support/engine-harness';

interface AttackServer {
  baseURL: string;
  /** Chat requests received. */
  requests: number;
  /** Bytes written to the response bodies so far. */
  written: number;
  /** When the client closed the last response, or null while it reads. */
  closedAt: number | null;
  close(): Promise<void>;
}

type Attack = (write: (text: string) => Promise<boolean>) => Promise<void>;

const servers: AttackServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** A server that answers every chat request with `attack`'s SSE bytes until the client hangs up. */
async function attackServer(attack: Attack): Promise<AttackServer> {
  const sockets = new Set<import('node:net').Socket>();
  const state = { requests: 0, written: 0, closedAt: null as number | null };
  const server = http.createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (chunk: Buffer) => body.push(chunk));
    req.on('end', () => {
      // A new task's title request (not streamed) is not the job's: refused, and not counted.
      if (!Buffer.concat(body).toString().includes('"stream":true')) {
        res.writeHead(404).end();
        return;
      }
      state.requests++;
      state.closedAt = null;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let open = true;
      res.on('close', () => {
        open = false;
        state.closedAt = Date.now();
      });
      // Resolves false once the client is gone; waits for the socket to drain, as a server that keeps pushing does.
      const write = (text: string) =>
        new Promise<boolean>((resolve) => {
          if (!open) return resolve(false);
          state.written += Buffer.byteLength(text);
          if (res.write(text)) return resolve(open);
          const done = () => {
            res.off('drain', done);
            res.off('close', done);
            resolve(open);
          };
          res.on('drain', done);
          res.on('close', done);
        });
      attack(write).finally(() => res.end());
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const s: AttackServer = {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    get requests() {
      return state.requests;
    },
    get written() {
      return state.written;
    },
    get closedAt() {
      return state.closedAt;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  servers.push(s);
  return s;
}

const event = (delta: object) => `data: ${JSON.stringify({ choices: [{ index: 0, delta }] })}\n\n`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, timeoutMs = 2000): Promise<void> {
  for (const end = Date.now() + timeoutMs; !check(); await sleep(10)) {
    if (Date.now() > end) throw new Error(`not within ${timeoutMs} ms: ${check}`);
  }
}

/** The longest a 20 ms timer fired late while `during` ran: how responsive the host stayed. */
async function watchLoop<T>(during: () => Promise<T>): Promise<{ value: T; maxLagMs: number; peakRssGrowth: number }> {
  const rss0 = process.memoryUsage().rss;
  let peak = rss0;
  let last = performance.now();
  let maxLagMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxLagMs = Math.max(maxLagMs, now - last - 20);
    last = now;
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  try {
    const value = await during();
    return { value, maxLagMs, peakRssGrowth: peak - rss0 };
  } finally {
    clearInterval(timer);
  }
}

/** Every byte the job left in the data dir: DB, WAL, transcripts, logs. */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}

async function attackJob(attack: Attack, env: Record<string, string> = {}) {
  const server = await attackServer(attack);
  const h = await engineHarness([], { env: { MAESTRO_LLM_BASE_URL: server.baseURL, ...env } });
  const before = bytesUnder(h.dataDir);
  const startedAt = Date.now();
  const { taskId, jobId } = h.createTask('Answer the question');
  const watched = await watchLoop(() => h.waitFor(jobId, ['succeeded', 'failed', 'retry', 'cancelled'], 30_000));
  return { h, server, taskId, jobId, startedAt, job: watched.value, watched, before };
}

/** The failed job as the task view shows it: its error code and message, and the error comment. */
function expectEndedAt(
  r: Awaited<ReturnType<typeof attackJob>>,
  limit: string,
  value: number,
  profileHint = 'MAESTRO_LLM_',
) {
  expect(r.job.status).toBe('failed');
  expect(r.job.errorCode).toBe('llm_limit');
  expect(r.job.error).toContain(`${limit} = ${value}`);
  expect(r.job.error).toContain(profileHint);
  expect(r.job.error).toContain('not retried');
  const comment = r.h.maestro.store.comments.listForTask(r.taskId).find((c) => c.kind === 'error');
  expect(comment?.body).toContain(`${limit} = ${value}`);
}

describe('LlmCall limits under attack (issue 21, P4.20, P4.23)', () => {
  it('P4.23 the endless stream: 2 MB/s of text ends at the reply cap, memory bounded, the host responsive, no retry', async () => {
    const cap = 4 * 1024 * 1024;
    const chunk = event({ content: 'x'.repeat(20 * 1024) });
    const r = await attackJob(
      async (write) => {
        await write(event({ role: 'assistant', content: '' }));
        while (await write(chunk)) await sleep(10); // ~2 MB/s, forever
      },
      { MAESTRO_LLM_MAX_REPLY_BYTES: String(cap) },
    );
    expectEndedAt(r, 'maxReplyBytes', cap, 'MAESTRO_LLM_MAX_REPLY_BYTES');
    // The client hung up at the cap: the server could push what the sockets buffer, no more, and nothing after.
    await until(() => r.server.closedAt !== null);
    const written = r.server.written;
    expect(written).toBeLessThan(cap + 8 * 1024 * 1024);
    await sleep(500);
    expect(r.server.written).toBe(written);
    expect(r.server.requests).toBe(1);
    expect(r.h.maestro.store.jobs.get(r.jobId)?.status).toBe('failed');
    // 4 MiB of text crossed the engine (deltas, live events); the 2 MB/s attack once took the host up by 250 MB.
    expect(r.watched.peakRssGrowth).toBeLessThan(96 * 1024 * 1024);
    expect(r.watched.maxLagMs).toBeLessThan(500);
    expect(bytesUnder(r.h.dataDir) - r.before).toBeLessThan(1024 * 1024);
  }, 60_000);

  it('P4.23 the trickle: 5 bytes a second never idles out, the total-time cap ends the call, and no second call starts', async () => {
    const r = await attackJob(
      async (write) => {
        const text = event({ role: 'assistant', content: 'thinking' }).repeat(1000);
        for (let i = 0; i < text.length; i += 5) {
          if (!(await write(text.slice(i, i + 5)))) return;
          await sleep(1000);
        }
      },
      { MAESTRO_LLM_MAX_CALL_SECONDS: '2' },
    );
    const tookMs = Date.now() - r.startedAt;
    expectEndedAt(r, 'maxCallSeconds', 2, 'MAESTRO_LLM_MAX_CALL_SECONDS');
    expect(tookMs).toBeGreaterThanOrEqual(1900);
    expect(tookMs).toBeLessThan(10_000);
    await sleep(1500);
    expect(r.server.requests).toBe(1);
    expect(r.h.maestro.store.jobs.get(r.jobId)?.status).toBe('failed');
    expect(r.h.maestro.store.jobs.listForTask(r.taskId)).toHaveLength(1);
  }, 60_000);

  it('P4.23 one 50 MB tool-call argument in a single SSE event is cut before the SDK parses it: seconds, not minutes; nothing of it kept', async () => {
    const r = await attackJob(async (write) => {
      const head = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'write_file', arguments: '' } }] } }] })}\n\n`;
      if (!(await write(head))) return;
      const open = '{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"';
      if (!(await write(`data: ${open}{\\"path\\":\\"a.txt\\",\\"content\\":\\"`))) return;
      const mb = 'A'.repeat(1024 * 1024);
      for (let i = 0; i < 50; i++) if (!(await write(mb))) return;
      await write('\\"}"}}]}}]}\n\n');
      await write('data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}\n\n');
    });
    const tookMs = Date.now() - r.startedAt;
    expectEndedAt(r, 'maxToolArgumentBytes', 1024 * 1024, 'MAESTRO_LLM_MAX_TOOL_ARGUMENT_BYTES');
    expect(tookMs).toBeLessThan(5_000);
    expect(r.watched.maxLagMs).toBeLessThan(500);
    expect(r.server.written).toBeLessThan(50 * 1024 * 1024);
    await sleep(300);
    expect(r.server.requests).toBe(1);
    // Nothing of the argument was stored: the transcript, the log entries and the DB grew by far less than 1 MB.
    expect(bytesUnder(r.h.dataDir) - r.before).toBeLessThan(1024 * 1024);
    const entries = JSON.stringify(r.h.maestro.store.logEntries.listForTask(r.taskId));
    expect(entries).not.toMatch(/A{1000}/);
    expect(fs.existsSync(path.join(r.h.workspace, 'a.txt'))).toBe(false);
  }, 60_000);
});

// The profiles' capacity against a real HTTP model server (driven through the openai SDK) that counts the requests
// in flight for each model and, past its own capacity, answers 429: each profile's limit holds across its jobs'
// calls, and calls that meet 429s wait and then all succeed, with no burst of retries (issue 28).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ProfileCapacities } from './capacity';
import { LlmClient } from './client';
import type { LlmProfile } from './profiles';
import type { LlmCallRecord } from './types';

interface Counting {
  baseURL: string;
  /** Most requests in flight at once, per model. */
  peak: Map<string, number>;
  requests: number;
  refused: number;
  close(): Promise<void>;
}

const servers: Counting[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** A server that answers after `replyMs`; with `capacity`, a request beyond that many in flight gets a 429. */
async function countingServer(o: { replyMs: number; capacity?: number; retryAfter?: string }): Promise<Counting> {
  const inFlight = new Map<string, number>();
  const state: Counting = { baseURL: '', peak: new Map(), requests: 0, refused: 0, close: async () => {} };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => {
      raw += d;
    });
    req.on('end', () => {
      state.requests++;
      const model = (JSON.parse(raw) as { model: string }).model;
      const now = (inFlight.get(model) ?? 0) + 1;
      if (o.capacity !== undefined && now > o.capacity) {
        state.refused++;
        res.writeHead(429, {
          'content-type': 'application/json',
          ...(o.retryAfter ? { 'retry-after': o.retryAfter } : {}),
        });
        res.end(JSON.stringify({ error: { message: 'Rate limit reached', type: 'rate_limit_exceeded' } }));
        return;
      }
      inFlight.set(model, now);
      state.peak.set(model, Math.max(state.peak.get(model) ?? 0, now));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: object, finish: string | null) =>
        `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      setTimeout(() => {
        inFlight.set(model, (inFlight.get(model) ?? 1) - 1);
        res.end(`${chunk({ role: 'assistant', content: 'done' }, null)}${chunk({}, 'stop')}data: [DONE]\n\n`);
      }, o.replyMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = () => new Promise((resolve) => server.close(() => resolve()));
  servers.push(state);
  return state;
}

const MESSAGES = [{ role: 'user' as const, content: 'Say done.' }];

function clientOf(capacities: ProfileCapacities, profile: LlmProfile): LlmClient {
  return new LlmClient({ profile, capacity: capacities.of(profile), log: () => {}, random: () => 0.5 });
}

describe('profile capacity against a counting model server', () => {
  it('each profile runs at most its own limit of calls at once, across all its jobs', async () => {
    const server = await countingServer({ replyMs: 60 });
    const capacities = new ProfileCapacities();
    const a: LlmProfile = { name: 'a', baseURL: server.baseURL, model: 'model-a', apiKey: '', maxConcurrentCalls: 2 };
    const b: LlmProfile = { name: 'b', baseURL: server.baseURL, model: 'model-b', apiKey: '', maxConcurrentCalls: 3 };
    // One client per job, as the engine would have per engine: the limit is the profile's, not the client's.
    const jobs = [
      ...Array.from({ length: 6 }, () => clientOf(capacities, a)),
      ...Array.from({ length: 6 }, () => clientOf(capacities, b)),
    ];
    const results = await Promise.all(jobs.map((c) => c.generate({ messages: MESSAGES })));
    expect(results.map((r) => r.text)).toEqual(Array(12).fill('done'));
    expect(server.peak.get('model-a')).toBe(2);
    expect(server.peak.get('model-b')).toBe(3);
  });

  it('calls over the server capacity wait out its 429s and all succeed, without a burst of retries', async () => {
    const server = await countingServer({ replyMs: 80, capacity: 2 });
    const capacities = new ProfileCapacities();
    const profile: LlmProfile = { name: 'p', baseURL: server.baseURL, model: 'm', apiKey: '' };
    const waits: string[] = [];
    const records: LlmCallRecord[] = [];
    const t0 = Date.now();
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        clientOf(capacities, profile).generate(
          { messages: MESSAGES },
          { onCapacityWait: (w) => waits.push(w.reason), onLlmCallEnd: (r) => records.push(r) },
        ),
      ),
    );
    expect(results.map((r) => r.text)).toEqual(Array(8).fill('done'));
    // The first burst meets the server's limit; after it the profile runs what the server takes, so the refusals
    // stay few: not every waiting call retrying at once each time.
    expect(server.refused).toBeGreaterThan(0);
    expect(server.refused).toBeLessThanOrEqual(12);
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(waits).toContain('rate_limited');
    const refusals = records.filter((r) => r.status === 429);
    expect(refusals.length).toBe(server.refused);
    expect(refusals.every((r) => r.outcome === 'retryable_error' && (r.retryInMs ?? 0) > 0)).toBe(true);
  }, 30_000);

  it("a 429's Retry-After holds every call of the profile until it passes", async () => {
    const server = await countingServer({ replyMs: 10, capacity: 1, retryAfter: '1' });
    const capacities = new ProfileCapacities();
    const profile: LlmProfile = { name: 'p', baseURL: server.baseURL, model: 'm', apiKey: '' };
    const t0 = Date.now();
    const ends: number[] = [];
    await Promise.all(
      [0, 1].map(() =>
        clientOf(capacities, profile)
          .generate({ messages: MESSAGES })
          .then(() => ends.push(Date.now() - t0)),
      ),
    );
    // One ran at once; the other got the 429 and waited the second the server asked for.
    expect(Math.min(...ends)).toBeLessThan(900);
    expect(Math.max(...ends)).toBeGreaterThanOrEqual(1000);
    expect(server.refused).toBe(1);
  }, 15_000);
});

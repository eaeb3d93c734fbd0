// Issue 23 point 8 in main: $ per LlmCall, AgentTurn, Invoke, job and task from the profile's prices (cached prompt
// tokens at the cached price), no $ where the model has no price, prices that fail their schema refused naming the
// field with nothing saved, and the context gauge from the server's model list (the real openai SDK against the
// scripted server) or else the profile's own window.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { OpOutput } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import { type TestBridge, testBridge } from '../../test-support/bridge-harness';
import {
  type ScriptedLlmServer,
  type ScriptedLlmServerOptions,
  startScriptedLlmServer,
} from '../../test-support/scripted-llm-server';
import { PROFILES_FILE } from '../llm/profile-store';

const servers: ScriptedLlmServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** Two AgentTurns with fixed usage: a call of a tool that does not exist, then complete. */
const script = () => [
  {
    toolCalls: [{ name: 'no_such_tool', arguments: {} }],
    usage: { promptTokens: 1000, completionTokens: 100, cachedTokens: 400 },
  },
  {
    toolCalls: [{ name: 'complete', arguments: { status: 'success', message: 'done' } }],
    usage: { promptTokens: 2000, completionTokens: 50, cachedTokens: 1500 },
  },
];

async function llm(options: ScriptedLlmServerOptions = {}): Promise<ScriptedLlmServer> {
  const server = await startScriptedLlmServer({ script: script(), ...options });
  servers.push(server);
  return server;
}

async function runTask(b: TestBridge, profile: string): Promise<string> {
  b.maestro.start();
  const created = await b.api('POST', '/tasks', { instruction: 'count', profile });
  expect(created.status, created.text).toBe(201);
  const jobId: string = created.json.job.id;
  await expect.poll(() => b.maestro.store.jobs.get(jobId)?.status, { timeout: 10_000 }).toBe('succeeded');
  return created.json.task.id;
}

async function usageOf(b: TestBridge, taskId: string): Promise<OpOutput<'getUsage'>> {
  const res = await b.api('GET', `/tasks/${taskId}/usage`);
  expect(res.status, res.text).toBe(200);
  return res.json;
}

const prices = { input: 2, cachedInput: 0.5, output: 8 };
// First call: 600 uncached × $2 + 400 cached × $0.5 + 100 out × $8 per million; second: 500 × 2 + 1500 × 0.5 + 50 × 8.
const FIRST = (600 * 2 + 400 * 0.5 + 100 * 8) / 1e6;
const SECOND = (500 * 2 + 1500 * 0.5 + 50 * 8) / 1e6;

describe('cost (issue 23 point 8)', () => {
  it('P9.16 P9.17 a priced profile: $ per LlmCall, AgentTurn, Invoke, job and task; cached tokens at the cached price', async () => {
    const server = await llm();
    const b = await testBridge();
    const saved = await b.api('POST', '/profiles', {
      name: 'priced',
      baseURL: server.baseURL,
      model: 'scripted-model',
      prices,
    });
    expect(saved.status, saved.text).toBe(201);
    expect(saved.json.profile.prices).toEqual(prices);
    const usage = await usageOf(b, await runTask(b, 'priced'));

    const turns = usage.invokes.flatMap((i) => i.agentTurns);
    const calls = turns.flatMap((t) => t.llmCalls);
    expect(calls.map((c) => c.usd)).toEqual([FIRST, SECOND]);
    expect(calls.map((c) => c.model)).toEqual(['scripted-model', 'scripted-model']);
    expect(turns.map((t) => t.usd)).toEqual([FIRST, SECOND]);
    expect(usage.invokes.map((i) => i.usd)).toEqual([0.00435]);
    expect(usage.jobs.map((j) => j.usd)).toEqual([0.00435]);
    expect(usage.totalUsd).toBe(0.00435); // exact: summed in picodollars, not floats
    // Priced as input, the cached tokens would have made it $0.0072: the discount is applied.
    expect(usage.totalUsd).not.toBe((1000 * 2 + 100 * 8 + 2000 * 2 + 50 * 8) / 1e6);
  });

  it('P9.17 a model without a price shows tokens without $ (null, never $0), also when the profile now names another model', async () => {
    const server = await llm();
    const b = await testBridge();
    await b.api('POST', '/profiles', { name: 'free', baseURL: server.baseURL, model: 'scripted-model' });
    const unpriced = await usageOf(b, await runTask(b, 'free'));
    expect(unpriced.total.promptTokens).toBe(3000);
    expect(unpriced.totalUsd).toBeNull();
    expect(unpriced.jobs.map((j) => j.usd)).toEqual([null]);
    expect(
      unpriced.invokes.flatMap((i) => i.agentTurns.flatMap((t) => [t.usd, ...t.llmCalls.map((c) => c.usd)])),
    ).toEqual([null, null, null, null]);

    // Prices for another model do not price calls of this one.
    server.push(...script());
    await b.api('POST', '/profiles', { name: 'mine', baseURL: server.baseURL, model: 'scripted-model', prices });
    const taskId = await runTask(b, 'mine');
    expect((await usageOf(b, taskId)).totalUsd).toBe(0.00435);
    await b.api('POST', '/profiles', { name: 'mine', baseURL: server.baseURL, model: 'another-model', prices });
    const after = await usageOf(b, taskId);
    expect(after.totalUsd).toBeNull();
    expect(after.total.completionTokens).toBe(150);
  });

  it('prices that fail their schema are refused naming the field; nothing is saved', async () => {
    const b = await testBridge();
    const file = path.join(b.maestro.ctx.dataDir, PROFILES_FILE);
    const ok = { name: 'p', baseURL: 'http://127.0.0.1:8/v1', model: 'm' };
    const cases: [unknown, string][] = [
      [{ input: -1, output: 1 }, 'input'],
      [{ input: 1, output: -0.5 }, 'output'],
      [{ input: 1, cachedInput: -2, output: 1 }, 'cachedInput'],
      [{ input: 'two', output: 1 }, 'input'],
      [{ input: 1e9, output: 1 }, 'input'],
      [{ input: 1, output: 1, cached: 1 }, ''],
      [{ output: 1 }, 'input'],
    ];
    for (const [bad, field] of cases) {
      const res = await b.api('POST', '/profiles', { ...ok, prices: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.json.error.code).toBe('invalid_input');
      const paths = res.json.error.issues.map((i: { path: unknown[] }) => i.path.join('.'));
      expect(
        paths.some((p: string) => p.startsWith(field ? `prices.${field}` : 'prices')),
        JSON.stringify(paths),
      ).toBe(true);
    }
    // NaN and Infinity cannot travel in JSON; over IPC they can, and are refused the same way.
    for (const input of [Number.NaN, Number.POSITIVE_INFINITY]) {
      let error: unknown;
      try {
        b.maestro.invoke('saveProfile', { ...ok, prices: { input, output: 1 } });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(MaestroError);
      expect((error as MaestroError).toBody().issues?.map((i) => i.path.join('.'))).toContain('prices.input');
    }
    expect(fs.existsSync(file)).toBe(false);
    expect((await b.api('GET', '/profiles')).json.profiles).toEqual([]);
  });
});

describe('context gauge (issue 23 point 8)', () => {
  it("the window the server's model list states (real openai SDK), asked once; else the profile's; else no gauge", async () => {
    const server = await llm({ modelFields: { 'scripted-model': { context_window: 131_072 } } });
    const b = await testBridge();
    const save = (name: string, baseURL: string, contextWindow?: number) =>
      b.api('POST', '/profiles', {
        name,
        baseURL,
        model: 'scripted-model',
        ...(contextWindow ? { contextWindow } : {}),
      });
    await save('listed', server.baseURL, 100_000);
    const taskId = await runTask(b, 'listed');
    const gauge = async (id: string) => (await b.api('GET', `/tasks/${id}/context`)).json.context;
    expect(await gauge(taskId)).toEqual({
      promptTokens: 2000,
      contextWindow: 131_072,
      source: 'server',
      model: 'scripted-model',
    });
    await gauge(taskId);
    expect(server.modelListRequests).toHaveLength(1);

    // A server whose list says nothing of windows: the profile's own field.
    const plain = await llm();
    await save('own', plain.baseURL, 100_000);
    const own = await runTask(b, 'own');
    expect(await gauge(own)).toEqual({
      promptTokens: 2000,
      contextWindow: 100_000,
      source: 'profile',
      model: 'scripted-model',
    });

    // Neither says: no gauge rather than a guessed one.
    const silent = await llm();
    await save('unknown', silent.baseURL);
    expect(await gauge(await runTask(b, 'unknown'))).toBeNull();
  });
});

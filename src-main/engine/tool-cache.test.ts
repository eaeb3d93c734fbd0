// The read-only tool cache (P4.36): identical read-only calls answered from it, any call that may write empties it.

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { call, complete, engineHarness, SETTLED } from '../../test-support/engine-harness';
import { fail, ok } from '../tools/outcome';
import { NO_RULES } from '../tools/permission';
import type { AnyToolDef, ToolContext } from '../tools/types';
import type { MovementDefinition } from './pieces/schema';
import { callKey, canonicalJson, ToolCache } from './tool-cache';
import { dispatchRegularToolCalls, type ToolCall } from './tool-dispatch';

function fakeTools() {
  const runs: string[] = [];
  let version = 0;
  const read: AnyToolDef = {
    name: 'read_file',
    description: 'Reads a file.',
    parameters: z.object({ path: z.string(), offset: z.number().optional() }),
    readOnly: true,
    async execute(args: { path: string }) {
      runs.push(`read ${args.path}`);
      return args.path === 'missing' ? fail('no such file') : ok(`${args.path} v${version}`);
    },
  };
  const write: AnyToolDef = {
    name: 'write_file',
    description: 'Writes a file.',
    parameters: z.object({ path: z.string() }),
    readOnly: false,
    async execute(args: { path: string }) {
      runs.push(`write ${args.path}`);
      version++;
      return ok('written');
    },
  };
  return { runs, tools: new Map([read, write].map((t) => [t.name, t])) };
}

const movement: MovementDefinition = {
  name: 'work',
  description: 'Work',
  guidance: '',
  tools: null,
  edit: true,
  maxIterations: 10,
  transitions: [],
};
const ctx = (signal = new AbortController().signal): ToolContext => ({
  taskId: 't',
  jobId: 'j',
  workspacePath: '/tmp',
  canEdit: true,
  signal,
  sandbox: { ok: false, reason: 'none in this test' },
});
let n = 0;
const c = (name: string, args: Record<string, unknown> | string): ToolCall => ({
  id: `call_${++n}`,
  name,
  arguments: typeof args === 'string' ? args : JSON.stringify(args),
});
const contents = (d: { outcome: { kind: string; content?: string } }[]) => d.map((x) => x.outcome.content);

describe('read-only tool cache', () => {
  it('P4.36 canonical keys: the same call with its keys in another order is one key', () => {
    expect(canonicalJson({ b: [1, { y: 2, x: 1 }], a: null })).toBe('{"a":null,"b":[1,{"x":1,"y":2}]}');
    expect(callKey('read_file', '{"path":"a","offset":0}')).toBe(callKey('read_file', ' {"offset":0,"path":"a"}'));
    expect(callKey('read_file', '{"path":"a"}')).not.toBe(callKey('glob', '{"path":"a"}'));
    expect(callKey('read_file', '')).toBe(callKey('read_file', '{}'));
    expect(callKey('read_file', '{broken')).toBe('read_file\u0000{broken');
  });

  it('P4.36 an identical read-only call is answered from the cache until a write runs', async () => {
    const { runs, tools } = fakeTools();
    const cache = new ToolCache();
    const x = ctx();
    const first = await dispatchRegularToolCalls(
      [c('read_file', { path: 'a', offset: 0 })],
      tools,
      movement,
      x,
      cache,
      NO_RULES,
    );
    const again = await dispatchRegularToolCalls(
      [c('read_file', { offset: 0, path: 'a' })],
      tools,
      movement,
      x,
      cache,
      NO_RULES,
    );
    expect(contents(first)).toEqual(['a v0']);
    expect(contents(again)).toEqual(['a v0']);
    expect(again[0]?.outcome).toMatchObject({ ok: true });
    expect(runs).toEqual(['read a']);
    expect(cache.size).toBe(1);

    await dispatchRegularToolCalls([c('write_file', { path: 'a' })], tools, movement, x, cache, NO_RULES);
    const fresh = await dispatchRegularToolCalls(
      [c('read_file', { path: 'a', offset: 0 })],
      tools,
      movement,
      x,
      cache,
      NO_RULES,
    );
    expect(contents(fresh)).toEqual(['a v1']);
    expect(runs).toEqual(['read a', 'write a', 'read a']);
  });

  it('P4.36 errors and calls a movement does not allow are never served from the cache', async () => {
    const { runs, tools } = fakeTools();
    const cache = new ToolCache();
    const x = ctx();
    await dispatchRegularToolCalls([c('read_file', { path: 'missing' })], tools, movement, x, cache, NO_RULES);
    await dispatchRegularToolCalls([c('read_file', { path: 'missing' })], tools, movement, x, cache, NO_RULES);
    expect(runs).toEqual(['read missing', 'read missing']);
    await dispatchRegularToolCalls([c('read_file', { path: 'b' })], tools, movement, x, cache, NO_RULES);
    const narrow = { ...movement, name: 'review', tools: ['write_file'] };
    const refused = await dispatchRegularToolCalls([c('read_file', { path: 'b' })], tools, narrow, x, cache, NO_RULES);
    expect(contents(refused)[0]).toMatch(/^Error: read_file is not available in movement review/);
    expect(cache.size).toBe(1);
    // Any call of a tool that may write empties it, even one whose arguments turn out invalid (on the safe side).
    await dispatchRegularToolCalls([c('write_file', '{"nope":1}')], tools, movement, x, cache, NO_RULES);
    expect(cache.size).toBe(0);
  });

  it('P4.36 one cache per job run: a batch of read-only calls shares it, another run has its own', async () => {
    const { runs, tools } = fakeTools();
    const [a, b] = [new ToolCache(), new ToolCache()];
    const x = ctx();
    await dispatchRegularToolCalls(
      [c('read_file', { path: 'p' }), c('read_file', { path: 'q' })],
      tools,
      movement,
      x,
      a,
      NO_RULES,
    );
    await dispatchRegularToolCalls([c('read_file', { path: 'p' })], tools, movement, x, a, NO_RULES);
    await dispatchRegularToolCalls([c('read_file', { path: 'p' })], tools, movement, x, b, NO_RULES);
    expect(runs).toEqual(['read p', 'read q', 'read p']);
  });

  it('P4.36 in a job: read, read again (cached), write, read (fresh)', async () => {
    const { runs, tools } = fakeTools();
    const h = await engineHarness(
      [
        call('read_file', { path: 'a' }),
        call('read_file', { path: 'a' }),
        call('write_file', { path: 'a' }),
        call('read_file', { path: 'a' }),
        complete(),
      ],
      { tools: [...tools.values()] },
    );
    const { jobId } = h.createTask('Read twice');
    expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
    expect(runs).toEqual(['read a', 'write a', 'read a']);
    const results = ((h.server.requests.at(-1)?.body?.messages ?? []) as { role: string; content: string }[])
      .filter((m) => m.role === 'tool')
      .map((m) => m.content);
    expect(results).toEqual(['a v0', 'a v0', 'written', 'a v1']);
  });
});

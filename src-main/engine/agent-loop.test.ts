import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AnyToolDef } from '../tools/types';
import { call, complete, engineHarness, SETTLED } from './engine-harness';

/** Test doubles of read-only / writing tools that record when they ran. */
function recordingTools(log: string[]): AnyToolDef[] {
  const make = (name: string, readOnly: boolean): AnyToolDef => ({
    name,
    description: `${name} for tests.`,
    parameters: z.strictObject({ id: z.string(), ms: z.number() }),
    readOnly,
    async execute({ id, ms }: { id: string; ms: number }) {
      log.push(`start ${id}`);
      await sleep(ms);
      log.push(`end ${id}`);
      return { kind: 'result', content: `${name} ${id}` };
    },
  });
  return [make('read_file', true), make('list_dir', true), make('write_file', false)];
}

const calls = (...c: [string, Record<string, unknown>][]) => ({
  toolCalls: c.map(([name, args]) => ({ name, arguments: args })),
});

describe('the agent loop', () => {
  it('P4.28 read-only calls of one reply run concurrently; results keep call order', async () => {
    const log: string[] = [];
    const h = await engineHarness(
      [calls(['read_file', { id: 'a', ms: 60 }], ['list_dir', { id: 'b', ms: 10 }]), complete()],
      { tools: recordingTools(log) },
    );
    const { jobId } = h.createTask('x');
    expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
    expect(log).toEqual(['start a', 'start b', 'end b', 'end a']);
    const m = h.server.requests[1]?.body?.messages as { role: string; content: string }[];
    expect(m.slice(-2).map((x) => x.content)).toEqual(['read_file a', 'list_dir b']);
  });

  it('P4.29 P4.39 with a writing call every call runs one by one in call order', async () => {
    const log: string[] = [];
    const h = await engineHarness(
      [
        calls(['read_file', { id: 'a', ms: 40 }], ['write_file', { id: 'b', ms: 5 }], ['list_dir', { id: 'c', ms: 5 }]),
        complete(),
      ],
      { tools: recordingTools(log) },
    );
    const { jobId } = h.createTask('x');
    expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    const finished = h.events.flatMap((e) => (e.type === 'tool.finished' ? [e.name] : []));
    expect(finished).toEqual(['read_file', 'write_file', 'list_dir', 'complete']);
  });

  it('P1.05 P4.10 P4.11 an interjection posted during a stream reaches the model at the next iteration, once', async () => {
    const log: string[] = [];
    const h = await engineHarness(
      [{ ...call('read_file', { id: 'a', ms: 1 }), delayMs: 150 }, complete(), complete()],
      {
        tools: recordingTools(log),
      },
    );
    const { taskId, jobId } = h.createTask('x');
    await h.waitFor(jobId, ['running']);
    await sleep(50);
    const posted = h.maestro.invoke('addComment', { taskId, body: 'Use tabs, please.' });
    expect(posted.disposition).toBe('interjection');
    expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
    const second = h.server.requests[1]?.body?.messages as { role: string; content: string }[];
    expect(second.at(-1)).toEqual({ role: 'user', content: 'Message from the user: Use tabs, please.' });
    const all = h.server.requests.flatMap((r) =>
      ((r.body?.messages ?? []) as { content: string }[]).map((m) => m.content),
    );
    expect(all.filter((c) => c?.includes('Use tabs')).length).toBe(1);
    expect(h.maestro.store.comments.undeliveredInterjections(jobId)).toEqual([]);
  });

  it('P1.21 P4.08 cancel while the model streams aborts the stream and leaves the job cancelled', async () => {
    const h = await engineHarness([{ fault: 'hang', text: 'Working on' }]);
    const { taskId, jobId } = h.createTask('x');
    await h.waitFor(jobId, ['running']);
    await sleep(100);
    const started = Date.now();
    h.maestro.invoke('cancelTask', { taskId });
    await h.maestro.worker?.idle();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(h.maestro.store.jobs.get(jobId)?.status).toBe('cancelled');
    const { comments } = h.maestro.invoke('getTask', { taskId });
    expect(comments.some((c) => c.kind === 'result')).toBe(false);
  });

  it('P4.21 P9.11 P9.14 a 500 is retried with identical messages: two LlmCalls in one AgentTurn', async () => {
    const h = await engineHarness([{ fault: 'http', status: 500 }, complete()]);
    const { taskId, jobId } = h.createTask('x');
    expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
    expect(h.server.requests[0]?.rawBody).toBe(h.server.requests[1]?.rawBody);
    const types = h.events.map((e) => e.type).filter((t) => /^(TurnStart|TurnEnd|LlmCallStart|LlmCallEnd)$/.test(t));
    expect(types).toEqual(['TurnStart', 'LlmCallStart', 'LlmCallEnd', 'LlmCallStart', 'LlmCallEnd', 'TurnEnd']);
    const usage = h.maestro.invoke('getUsage', { taskId });
    expect(usage.invokes).toHaveLength(1);
    expect(usage.invokes[0]?.agentTurns).toHaveLength(1);
    expect(usage.invokes[0]?.agentTurns[0]?.llmCalls.map((c) => c.outcome)).toEqual(['retryable_error', 'ok']);
  });

  it('P4.22 P2.28 retries exhausted: the job goes to retry with the error', async () => {
    const h = await engineHarness(Array.from({ length: 5 }, () => ({ fault: 'http' as const, status: 503 })));
    const { jobId } = h.createTask('x');
    const job = await h.waitFor(jobId, SETTLED);
    expect(job.status).toBe('retry');
    expect(job.error).toMatch(/^LLM: /);
    expect(job.resumeMovement).toBe('work');
  });

  it('P4.23 a 401 is terminal: failed at once after one LlmCall', async () => {
    const h = await engineHarness([{ fault: 'http', status: 401, message: 'bad key' }]);
    const { jobId } = h.createTask('x');
    const job = await h.waitFor(jobId, SETTLED);
    expect(job.status).toBe('failed');
    expect(h.server.requests).toHaveLength(1);
  });

  it('P4.20 P7.16 streamed text reaches subscribers as coalesced transient deltas', async () => {
    const h = await engineHarness([{ text: 'word '.repeat(200), chunkDelayMs: 0 }, complete()]);
    const { jobId } = h.createTask('x');
    await h.waitFor(jobId, SETTLED);
    const deltas = h.events.filter((e) => e.type === 'stream.delta');
    const text = deltas.map((e) => (e.type === 'stream.delta' ? e.text : '')).join('');
    expect(text.startsWith('word '.repeat(200))).toBe(true);
    expect(deltas.every((e) => e.seq === 0)).toBe(true);
    expect(h.maestro.store.events.since(0).some((e) => e.type === 'stream.delta')).toBe(false);
  });

  it('P9.01 P9.03 P9.15 P9.16 P9.17 the log: Invoke(UserSend), UserTurn, AgentTurn, LlmCall, ToolTurn; usage rolls up', async () => {
    const h = await engineHarness([
      { ...call('no_such_tool', {}), usage: { promptTokens: 100, completionTokens: 10, cachedTokens: 0 } },
      { ...complete(), usage: { promptTokens: 150, completionTokens: 20, cachedTokens: 90 } },
    ]);
    const { taskId, jobId } = h.createTask('x');
    await h.waitFor(jobId, SETTLED);
    const kinds = h.maestro.store.logEntries.listForTask(taskId).map((e) => e.kind);
    expect(kinds).toEqual([
      'Invoke',
      'UserTurn',
      'AgentTurn',
      'LlmCall',
      'ToolTurn',
      'AgentTurn',
      'LlmCall',
      'ToolTurn',
    ]);
    const seqs = h.maestro.store.logEntries.listForTask(taskId).map((e) => e.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    const usage = h.maestro.invoke('getUsage', { taskId });
    expect(usage.total).toEqual({ llmCalls: 2, promptTokens: 250, completionTokens: 30, cachedPromptTokens: 90 });
    expect(usage.invokes[0]?.kind).toBe('UserSend');
    expect(usage.invokes[0]?.usage).toEqual(usage.total);
    expect(usage.jobs).toEqual([{ jobId, usage: usage.total }]);
    expect(usage.invokes[0]?.agentTurns.map((t) => t.usage.promptTokens)).toEqual([100, 150]);
    expect(h.events.filter((e) => e.type === 'InvokeStart')).toHaveLength(1);
    expect(h.maestro.store.jobs.get(jobId)?.pendingInvoke).toBeNull();
  });

  it('P1.15 P4.11 an interjection that arrives during the last iteration is not lost: a follow-up job reads it', async () => {
    const h = await engineHarness([{ ...complete('first answer'), delayMs: 150 }, complete('read it')]);
    const { taskId, jobId } = h.createTask('x');
    await h.waitFor(jobId, ['running']);
    await sleep(50);
    expect(h.maestro.invoke('addComment', { taskId, body: 'One more thing.' }).disposition).toBe('interjection');
    expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
    const jobs = h.maestro.store.jobs.listForTask(taskId);
    expect(jobs).toHaveLength(2);
    const followup = await h.waitFor(jobs[1]?.id as string, SETTLED);
    expect(followup.status).toBe('succeeded');
    const seen = (h.server.requests[1]?.body?.messages ?? []) as { role: string; content: string }[];
    expect(seen.at(-1)).toEqual({ role: 'user', content: 'Message from the user: One more thing.' });
  });
});

import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { arrival, call, complete, engineHarness, SETTLED } from '../../test-support/engine-harness';
import { DONE, frames } from '../../test-support/provider-shapes/shape';
import type { RecordedRequest, ScriptEntry } from '../../test-support/scripted-llm-server';
import { transcriptOf } from '../../test-support/transcript-lines';
import type { AnyToolDef } from '../tools/types';
import { EMPTY_REPLY } from './assistant-reply';

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
      return { kind: 'result', ok: true, content: `${name} ${id}` };
    },
  });
  return [make('read_file', true), make('list_dir', true), make('write_file', false)];
}

const calls = (...c: [string, Record<string, unknown>][]) => ({
  toolCalls: c.map(([name, args]) => ({ name, arguments: args })),
});

describe('the agent loop', () => {
  it('P4.28 P4.54 read-only calls of one reply run concurrently; results keep call order', async () => {
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

  it('P4.39 a call that may change something and a delivered interjection are in the transcript before the next request', async () => {
    let taskId = '';
    const transcriptAt: string[] = [];
    /** The transcript as the request that `entry` answers arrived. */
    const seen = (entry: ScriptEntry) => (request: RecordedRequest) => {
      transcriptAt.push(transcriptOf(h.maestro, taskId).read());
      return typeof entry === 'function' ? entry(request) : entry;
    };
    const second = arrival({ ...call('read_file', { id: 'r', ms: 1 }), delayMs: 150 });
    const h = await engineHarness([call('write_file', { id: 'w', ms: 1 }), seen(second.entry), seen(complete())], {
      tools: recordingTools([]),
    });
    const created = h.createTask('x');
    taskId = created.taskId;
    await second.arrived;
    expect(h.maestro.invoke('addComment', { taskId, body: 'Mind the tabs.' }).disposition).toBe('interjection');
    expect((await h.waitFor(created.jobId, SETTLED)).status).toBe('succeeded');
    // Written before each request left: the write's result, then the user's message.
    expect(transcriptAt[0]).toContain('"content":"write_file w"');
    expect(transcriptAt[1]).toContain('Message from the user: Mind the tabs.');
  });

  it('P1.05 P4.10 P4.11 P5.11 P9.06 an interjection posted during a stream reaches the model at the next iteration, once', async () => {
    const first = arrival({ ...call('read_file', { id: 'a', ms: 1 }), delayMs: 150 });
    const h = await engineHarness([first.entry, complete(), complete()], { tools: recordingTools([]) });
    const { taskId, jobId } = h.createTask('x');
    await first.arrived;
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
    // The interjection is a UserTurn inside the running Invoke, not a new Invoke.
    const entries = h.maestro.store.logEntries.listForTask(taskId);
    expect(entries.filter((e) => e.kind === 'Invoke')).toHaveLength(1);
    expect(entries.filter((e) => e.kind === 'UserTurn').map((e) => e.body)).toContainEqual({
      text: 'Use tabs, please.',
    });
  });

  it('P1.21 P3.18 P4.08 cancel while the model streams aborts the stream, leaves the job cancelled and the streamed text in its step', async () => {
    const h = await engineHarness([{ fault: 'hang', text: 'Working on' }]);
    const { taskId, jobId } = h.createTask('x');
    await expect.poll(() => h.events.some((e) => e.type === 'stream.delta' && e.jobId === jobId)).toBe(true);
    const started = Date.now();
    h.maestro.invoke('cancelTask', { taskId });
    await h.maestro.worker?.idle();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(h.maestro.store.jobs.get(jobId)?.status).toBe('cancelled');
    const { comments } = h.maestro.invoke('getTask', { taskId });
    expect(comments.some((c) => c.kind === 'result')).toBe(false);
    // What had streamed stays in the chat as the stopped turn's step, not failed (issue 23); the model never sees it.
    const { steps } = h.maestro.invoke('getTaskRecent', { taskId });
    expect(steps.map((s) => [s.text, s.error])).toEqual([['Working on', null]]);
    expect(transcriptOf(h.maestro, taskId).read()).not.toContain('Working on');
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
    // Sent after the step that made them, yet in order: each call's deltas before its end, every turn's end before
    // the job's own end (a delta sent early by the coalescing timer is folded into the next).
    const order = h.events
      .map((e) => (e.type === 'job.changed' ? `job.${e.job.status}` : e.type))
      .filter((t) => /^(TurnStart|TurnEnd|LlmCallStart|LlmCallEnd|stream\.delta|job\.succeeded)$/.test(t))
      .filter((t, i, all) => !(t === 'stream.delta' && all[i + 1] === 'stream.delta'));
    const turn = ['TurnStart', 'LlmCallStart', 'stream.delta', 'LlmCallEnd', 'TurnEnd'];
    expect(order).toEqual([...turn, ...turn, 'job.succeeded']);
  });

  it('P9.01 P9.03 P9.10 P9.12 P9.15 P9.16 P9.17 P9.20 the log: Invoke(UserSend), UserTurn, AgentTurn, LlmCall, ToolTurn; usage rolls up', async () => {
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
    const toolTurn = h.maestro.store.logEntries.listForTask(taskId).find((e) => e.kind === 'ToolTurn');
    expect(toolTurn?.body).toMatchObject({
      name: 'no_such_tool',
      result: expect.stringMatching(/^Error: unknown tool/),
    });
    expect(toolTurn?.body).toHaveProperty('tool_call_id', expect.any(String));
    const seqs = h.maestro.store.logEntries.listForTask(taskId).map((e) => e.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    const usage = h.maestro.invoke('getUsage', { taskId });
    expect(usage.total).toEqual({ llmCalls: 2, promptTokens: 250, completionTokens: 30, cachedPromptTokens: 90 });
    expect(usage.invokes[0]?.kind).toBe('UserSend');
    expect(usage.invokes[0]?.usage).toEqual(usage.total);
    // The scripted model has no price: tokens only, never $0 (issue 23).
    expect(usage.jobs).toEqual([{ jobId, usage: usage.total, usd: null }]);
    expect(h.maestro.store.logEntries.jobUsage(taskId, jobId)).toEqual(usage.total);
    await h.maestro.worker?.idle();
    expect(h.events.find((e) => e.type === 'job.metrics')).toMatchObject({ usage: usage.total });
    expect(usage.invokes[0]?.agentTurns.map((t) => t.usage.promptTokens)).toEqual([100, 150]);
    expect(h.events.filter((e) => e.type === 'InvokeStart')).toHaveLength(1);
    expect(h.maestro.store.jobs.get(jobId)?.pendingInvoke).toBeNull();
  });

  it('P1.15 P4.11 an interjection that arrives during the last iteration is not lost: a follow-up job reads it', async () => {
    const last = arrival({ ...complete('first answer'), delayMs: 150 });
    const h = await engineHarness([last.entry, complete('read it')]);
    const { taskId, jobId } = h.createTask('x');
    await last.arrived;
    expect(h.maestro.invoke('addComment', { taskId, body: 'One more thing.' }).disposition).toBe('interjection');
    expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
    const jobs = h.maestro.store.jobs.listForTask(taskId);
    expect(jobs).toHaveLength(2);
    const followup = await h.waitFor(jobs[1]?.id as string, SETTLED);
    expect(followup.status).toBe('succeeded');
    const seen = (h.server.requests[1]?.body?.messages ?? []) as { role: string; content: string }[];
    expect(seen.at(-1)).toEqual({ role: 'user', content: 'Message from the user: One more thing.' });
  });

  it('P4.37 a tool that throws gets an Error result; the loop goes on', async () => {
    const boom: AnyToolDef = {
      name: 'read_file',
      description: 'Throws.',
      parameters: z.strictObject({}),
      readOnly: true,
      async execute() {
        throw new Error('disk on fire');
      },
    };
    const h = await engineHarness([call('read_file', {}), complete()], { tools: [boom] });
    const { jobId } = h.createTask('x');
    expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
    const last = ((h.server.requests[1]?.body?.messages ?? []) as { content: string }[]).at(-1);
    expect(last?.content).toBe('Error: read_file failed: disk on fire');
  });

  it('P4.12 P9.07 P9.08 no progress for the watchdog limit → a warning appended as a user message, logged as a flat SystemTurn', async () => {
    const stuck = Array.from({ length: 4 }, (_, i) => call('no_such_tool', { i }));
    const h = await engineHarness([...stuck, complete()], {
      options: { limits: { textOnlyReplies: 3, repeatedCalls: 5, watchdogIterations: 3, asks: 5 } },
    });
    const { taskId, jobId } = h.createTask('x');
    expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
    const fourth = (h.server.requests[3]?.body?.messages ?? []) as { role: string; content: string }[];
    expect(fourth.at(-1)?.role).toBe('user');
    expect(fourth.at(-1)?.content).toMatch(/without progress/);
    const log = h.maestro.store.logEntries.listForTask(taskId);
    expect(log.filter((e) => e.kind === 'SystemTurn').map((e) => (e.body as { text: string }).text)).toContainEqual(
      expect.stringMatching(/without progress/),
    );
    expect(log.filter((e) => e.kind === 'Invoke')).toHaveLength(1);
    for (const e of log.filter((x) => x.kind === 'SystemTurn')) expect(Object.keys(e.body as object)).toEqual(['text']);
  });

  it('P4.12 a reply that makes the same call twice is no progress, though the call is new: the watchdog still warns', async () => {
    const note: AnyToolDef = {
      name: 'note',
      description: 'Notes something.',
      parameters: z.strictObject({ i: z.number() }),
      readOnly: true,
      cacheable: false,
      execute: async () => ({ kind: 'result', ok: true, content: 'noted' }),
    };
    const twice = Array.from({ length: 4 }, (_, i) => calls(['note', { i }], ['note', { i }]));
    const h = await engineHarness([...twice, complete()], {
      tools: [note],
      options: { limits: { textOnlyReplies: 3, repeatedCalls: 5, watchdogIterations: 3, asks: 5 } },
    });
    const { jobId } = h.createTask('x');
    expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
    const fourth = (h.server.requests[3]?.body?.messages ?? []) as { role: string; content: string }[];
    expect(fourth.at(-1)?.content).toMatch(/without progress/);
  });

  it('P5.12 a movement guidance and an interjection due together arrive as ONE user message', async () => {
    const first = arrival({ ...call('transition', { next: 'implement' }), delayMs: 150 });
    const h = await engineHarness([first.entry, complete()]);
    const { taskId, jobId } = h.createTask('x', { pieceId: 'plan-implement-review' });
    await first.arrived;
    h.maestro.invoke('addComment', { taskId, body: 'Keep it small.' });
    expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
    const second = (h.server.requests[1]?.body?.messages ?? []) as { role: string; content: string }[];
    const last = second.at(-1);
    expect(last?.role).toBe('user');
    expect(last?.content).toContain('# Movement: implement');
    expect(last?.content).toContain('Message from the user: Keep it small.');
    for (let i = 1; i < second.length; i++)
      expect(second[i]?.role === 'user' && second[i - 1]?.role === 'user').toBe(false);
  });

  it('P3.10 cancel between movements: no further LLM call', async () => {
    const first = arrival({ ...call('transition', { next: 'implement' }), delayMs: 150 });
    const h = await engineHarness([first.entry, complete()]);
    const { taskId, jobId } = h.createTask('x', { pieceId: 'plan-implement-review' });
    await first.arrived;
    h.maestro.invoke('cancelTask', { taskId });
    await h.maestro.worker?.idle();
    expect(h.maestro.store.jobs.get(jobId)?.status).toBe('cancelled');
    expect(h.server.requests).toHaveLength(1);
  });
});

describe('models that answer in text (issue 12)', () => {
  type Msg = { role: string; content: string | null; tool_calls?: { id: string; function: { name: string } }[] };
  const sent = (h: { server: { requests: RecordedRequest[] } }, i: number) =>
    (h.server.requests[i]?.body?.messages ?? []) as Msg[];
  const commentsOf = (h: Awaited<ReturnType<typeof engineHarness>>, taskId: string) =>
    h.maestro.invoke('getTask', { taskId }).comments;

  it('P4.26 calls written as <tool_call> text (a server without a tool parser) run like any call, complete too', async () => {
    const h = await engineHarness(
      [
        { text: 'Let me look.\n<tool_call>\n{"name": "read_file", "arguments": {"id": "a", "ms": 1}}\n</tool_call>' },
        {
          text: '<tool_call>{"name": "complete", "arguments": {"status": "success", "message": "Read it."}}</tool_call>',
        },
      ],
      { tools: recordingTools([]) },
    );
    const { taskId, jobId } = h.createTask('x');
    expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
    const second = sent(h, 1);
    const assistant = second.at(-2);
    expect(assistant?.content).toBe('Let me look.');
    expect(assistant?.tool_calls?.map((c) => c.function.name)).toEqual(['read_file']);
    expect(second.at(-1)).toMatchObject({ role: 'tool', content: 'read_file a' });
    expect(commentsOf(h, taskId).find((c) => c.kind === 'result')?.body).toBe('Read it.');
    expect(h.server.requests).toHaveLength(2);
  });

  it('P4.24 P4.25 a model that keeps answering in text: after the nudges its last text is the task’s result', async () => {
    const h = await engineHarness([{ text: 'a' }, { text: 'b' }, { text: 'c' }, { text: 'The answer is 42.' }]);
    const { taskId, jobId } = h.createTask('x');
    const job = await h.waitFor(jobId, SETTLED);
    expect(job.status).toBe('succeeded');
    expect(h.server.requests).toHaveLength(4);
    expect(sent(h, 3).at(-1)?.content).toMatch(/without calling a tool/);
    expect(commentsOf(h, taskId).find((c) => c.kind === 'result')?.body).toBe('The answer is 42.');
  });

  it('P4.25 P1.10 a last text that ends asking something becomes the question to the user', async () => {
    const h = await engineHarness([{ text: 'a' }, { text: 'b' }, { text: 'c' }, { text: 'Which file should I fix?' }]);
    const { taskId, jobId } = h.createTask('x');
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'waiting_human', waitReason: 'ask' });
    expect(commentsOf(h, taskId).find((c) => c.kind === 'question')?.body).toBe('Which file should I fix?');
  });

  it('P4.24 an empty reply is kept with a non-blank content, never null without calls; only empty replies fail', async () => {
    const h = await engineHarness([{ text: '' }, complete()]);
    const first = h.createTask('x');
    expect((await h.waitFor(first.jobId, SETTLED)).status).toBe('succeeded');
    expect(sent(h, 1).at(-2)).toEqual({ role: 'assistant', content: EMPTY_REPLY });

    const h2 = await engineHarness([{ text: '' }, { text: ' ' }, { text: '' }, { text: '' }]);
    const second = h2.createTask('x');
    const failed = await h2.waitFor(second.jobId, SETTLED);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/4 times in a row without calling a tool, and without any text/);
    for (const r of h2.server.requests)
      for (const m of (r.body?.messages ?? []) as Msg[]) expect(m.content === null && !m.tool_calls).toBe(false);
  });

  it('P4.23 a refusal (finish_reason content_filter) fails the task at once with the model’s words', async () => {
    const h = await engineHarness([{ text: 'I can’t help with that request.', finishReason: 'content_filter' }]);
    const { jobId } = h.createTask('x');
    const job = await h.waitFor(jobId, SETTLED);
    expect(job.status).toBe('failed');
    expect(job.error).toBe('I can’t help with that request.');
    expect(h.server.requests).toHaveLength(1);
  });

  it('P4.23 an OpenAI refusal (delta.refusal, finish_reason stop) fails the task at once with the model’s words', async () => {
    const f = frames('chatcmpl-r', 'gpt-5-mini');
    const refusal = {
      raw: {
        sse: [
          f({ role: 'assistant', content: null, refusal: 'I can’t ' }),
          f({ refusal: 'do that.' }),
          f({}, 'stop'),
          DONE,
        ],
      },
    };
    const h = await engineHarness([refusal]);
    const { jobId } = h.createTask('x');
    const job = await h.waitFor(jobId, SETTLED);
    expect(job.status).toBe('failed');
    expect(job.error).toBe('I can’t do that.');
    expect(h.server.requests).toHaveLength(1);
  });
});

// The chat's record of a job: each AgentTurn is recorded as a step (text, reasoning, calls, movement, usage) and each
// answer joins the step that made the call — in the run, after an approval resumed it in a new run, and after the
// job ended — and the live events carry the same step the page reads.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ChatStep } from '../../src-shared/entities';
import type { MaestroEvent } from '../../src-shared/events';
import { approvalTool, complete, engineHarness, SETTLED } from '../../test-support/engine-harness';
import type { AnyToolDef } from '../tools/types';

function tools(): AnyToolDef[] {
  return [
    {
      name: 'look',
      description: 'Looks at a path.',
      parameters: z.strictObject({ path: z.string() }),
      readOnly: true,
      async execute({ path }: { path: string }) {
        return path === 'missing'
          ? { kind: 'result', ok: false, content: `Error: ${path} not found` }
          : { kind: 'result', ok: true, content: `contents of ${path}` };
      },
    } as AnyToolDef,
    approvalTool(),
  ];
}

const call = (name: string, args: Record<string, unknown>, id: string) => ({ name, arguments: args, id });

describe('the chat record of a job (steps)', () => {
  it('P3.16 every AgentTurn is a step with its text, reasoning, calls and their answers, in order, after the job ended', async () => {
    const h = await engineHarness(
      [
        {
          text: 'I will look at **two** files.',
          reasoning: 'Start with the readme.',
          toolCalls: [call('look', { path: 'README.md' }, 'c1'), call('look', { path: 'missing' }, 'c2')],
        },
        { text: 'Now the tests.', toolCalls: [call('run_command', { command: 'npm test' }, 'c3')] },
        complete('All good.'),
      ],
      { tools: tools() },
    );
    const { taskId, jobId } = h.createTask('Check the project');
    const parked = await h.waitFor(jobId, SETTLED);
    expect(parked.waitReason).toBe('tool_request');
    const waiting = h.maestro.invoke('getTaskRecent', { taskId });
    expect(waiting.steps.map((s) => s.toolCalls.map((c) => [c.id, c.result?.ok ?? null]))).toEqual([
      [
        ['c1', true],
        ['c2', false],
      ],
      [['c3', null]],
    ]);
    const [request] = h.maestro.invoke('listToolRequests', { taskId }).requests;
    h.maestro.invoke('decideToolRequest', { taskId, requestId: request?.id as string, decision: 'approve' });
    await h.waitFor(jobId, ['succeeded']);

    const { steps, comments, olderCount } = h.maestro.invoke('getTaskRecent', { taskId });
    expect(olderCount).toBe(0);
    expect(steps).toHaveLength(3);
    const [first, second, last] = steps as [ChatStep, ChatStep, ChatStep];
    expect(first).toMatchObject({
      jobId,
      movement: 'work',
      depth: 0,
      text: 'I will look at **two** files.',
      reasoning: 'Start with the readme.',
      error: null,
      toolCalls: [
        {
          id: 'c1',
          name: 'look',
          arguments: '{"path":"README.md"}',
          result: { ok: true, content: 'contents of README.md' },
        },
        { id: 'c2', result: { ok: false, content: 'Error: missing not found' } },
      ],
    });
    expect(first.usage.llmCalls).toBe(1);
    expect(first.usage.promptTokens).toBeGreaterThan(0);
    // The approved call was answered by the run that resumed the job: it still joins the step that made it.
    expect(second.toolCalls).toEqual([
      expect.objectContaining({ id: 'c3', result: { ok: true, content: 'exit 0\nnpm test output', chars: 22 } }),
    ]);
    expect(last.toolCalls.map((c) => c.name)).toEqual(['complete']);
    // Steps sit between the instruction and the result in time.
    const instruction = comments.find((c) => c.kind === 'instruction');
    const result = comments.find((c) => c.kind === 'result');
    expect(instruction && instruction.createdAt <= first.createdAt).toBe(true);
    expect(result && last.createdAt <= result.createdAt).toBe(true);

    // Live: step.recorded carries what the page reads, without the answers; step.answered brings each answer.
    const recorded = h.events.flatMap((e) => (e.type === 'step.recorded' ? [e.step] : []));
    expect(recorded.map((s) => s.id)).toEqual(steps.map((s) => s.id));
    expect(recorded[0]).toEqual({ ...first, toolCalls: first.toolCalls.map((c) => ({ ...c, result: null })) });
    const answered = h.events.flatMap((e) => (e.type === 'step.answered' ? [[e.stepSeq, e.callId, e.result.ok]] : []));
    expect(answered).toEqual([
      [first.seq, 'c1', true],
      [first.seq, 'c2', false],
      [second.seq, 'c3', true],
      [last.seq, expect.any(String), true],
    ]);
  });

  it('P9.13 listTaskEvents brings the LlmCalls back from the log (sent live, not stored), in time order', async () => {
    const h = await engineHarness([{ text: 'one', toolCalls: [call('look', { path: 'a' }, 'c1')] }, complete('done')], {
      tools: tools(),
    });
    const { taskId, jobId } = h.createTask('Look');
    await h.waitFor(jobId, ['succeeded']);
    type Call = Extract<MaestroEvent, { type: 'LlmCallEnd' }>;
    const isCall = (e: MaestroEvent): e is Call => e.type === 'LlmCallEnd';
    const facts = (e: Call) => [e.seq, e.jobId, e.llmCallCount, e.attempt, e.outcome, e.usage];
    const live = h.events.filter(isCall);
    const { events } = h.maestro.invoke('listTaskEvents', { taskId });
    expect(live.map((e) => e.jobId)).toEqual([jobId, jobId]);
    expect(events.filter(isCall).map(facts)).toEqual(live.map(facts));
    const times = events.map((e) => e.ts);
    expect(times).toEqual([...times].sort());
  });

  it("P4.39 a step's answers are stored and sent before what follows it: the next turn, and the job's end", async () => {
    // The loop commits a step behind the next request (write-behind.ts): the order a person sees is unchanged.
    const h = await engineHarness(
      [
        { toolCalls: [call('look', { path: 'a' }, 'c1')] },
        { toolCalls: [call('look', { path: 'b' }, 'c2')] },
        complete('done'),
      ],
      { tools: tools() },
    );
    const { taskId, jobId } = h.createTask('Look twice');
    await h.waitFor(jobId, ['succeeded']);
    const order = (events: readonly MaestroEvent[]) =>
      events.flatMap((e) => {
        if (e.type === 'tool.finished') return [`answer ${e.name}`];
        if (e.type === 'TurnStart') return [`turn ${e.turnCount}`];
        if (e.type === 'job.changed' && e.job.status === 'succeeded') return ['succeeded'];
        return [];
      });
    const expected = ['turn 1', 'answer look', 'turn 2', 'answer look', 'turn 3', 'answer complete', 'succeeded'];
    expect(order(h.events)).toEqual(expected);
    // The stored events are in the same order (the live-only turns aside).
    const stored = h.maestro.store.db
      .prepare('SELECT type, payload FROM events WHERE task_id = ? ORDER BY seq')
      .all(taskId) as { type: string; payload: string }[];
    const storedOrder = order(stored.map((r) => ({ ...JSON.parse(r.payload), type: r.type }) as MaestroEvent));
    expect(storedOrder).toEqual(expected.filter((e) => !e.startsWith('turn')));
  });

  it('a generation that fails is a step with the error where it happened', async () => {
    const h = await engineHarness([{ fault: 'http', status: 400, message: 'model does not exist' }], {
      tools: tools(),
    });
    const { taskId, jobId } = h.createTask('Go');
    const failed = await h.waitFor(jobId, SETTLED);
    expect(failed.status).toBe('failed');
    const { steps } = h.maestro.invoke('getTaskRecent', { taskId });
    expect(steps).toEqual([
      expect.objectContaining({ text: '', toolCalls: [], error: expect.stringMatching(/model does not exist/) }),
    ]);
  });
});

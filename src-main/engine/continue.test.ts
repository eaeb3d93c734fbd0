import { describe, expect, it } from 'vitest';
import { complete, engineHarness, SETTLED, transition } from '../../test-support/engine-harness';
import type { RecordedRequest } from '../../test-support/scripted-llm-server';
import { transcriptOf } from '../../test-support/transcript-lines';

type Msg = {
  role: string;
  content: string | null;
  tool_calls?: { id: string; function: { name: string } }[];
  tool_call_id?: string;
};
const messages = (r: RecordedRequest | undefined) => (r?.body?.messages ?? []) as Msg[];
const calls = (ms: Msg[]) => ms.flatMap((m) => (m.tool_calls ?? []).map((c) => `${c.function.name}:${c.id}`));

describe('Continue replays the transcript (spec 3.2, 3.3)', () => {
  it('P3.02 P5.16 P6.09 P6.12 same-piece Continue: earlier turns replayed, finished complete dropped, transitions kept, handoff omitted', async () => {
    const h = await engineHarness([
      { toolCalls: [{ name: 'transition', arguments: { next: 'implement' }, id: 'gen_call_1' }] },
      { toolCalls: [{ name: 'transition', arguments: { next: 'review' }, id: 'gen_call_2' }] },
      { toolCalls: [{ name: 'complete', arguments: { status: 'success', message: 'v1' }, id: 'gen_call_3' }] },
      complete('v2'),
    ]);
    const { taskId, jobId } = h.createTask('Build it', { pieceId: 'plan-implement-review' });
    await h.waitFor(jobId, SETTLED);
    const { job } = h.maestro.invoke('continueTask', { taskId, instruction: 'Now add tests.' });
    expect(job.continuedFromJobId).toBe(jobId);
    expect((await h.waitFor(job.id, SETTLED)).status).toBe('succeeded');
    const first = messages(h.server.requests[0]);
    const replay = messages(h.server.requests[3]);
    expect(replay[0]?.role).toBe('system');
    expect(replay[0]?.content).toBe(first[0]?.content);
    expect(replay.filter((m) => m.role === 'system')).toHaveLength(1);
    expect(calls(replay)).toEqual(['transition:gen_call_1', 'transition:gen_call_2']);
    const last = replay.at(-1);
    expect(last?.role).toBe('user');
    expect(last?.content).toContain('# Continue\nNow add tests.');
    expect(last?.content).not.toContain('Handoff:');
    // The original instruction is in the replayed first user message, not repeated as a second user message.
    expect(replay.filter((m) => m.role === 'user').length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < replay.length; i++)
      expect(replay[i]?.role === 'user' && replay[i - 1]?.role === 'user').toBe(false);
  });

  it("P1.17 P5.17 P6.14 cross-piece Continue drops the old transitions and uses the new piece's tools", async () => {
    const h = await engineHarness([transition('implement'), transition('review'), complete('v1'), complete('v2')]);
    const { taskId, jobId } = h.createTask('Build it', { pieceId: 'plan-implement-review' });
    await h.waitFor(jobId, SETTLED);
    const { job } = h.maestro.invoke('continueTask', { taskId, pieceId: 'default' });
    expect((await h.waitFor(job.id, SETTLED)).status).toBe('succeeded');
    const replay = messages(h.server.requests[3]);
    expect(calls(replay)).toEqual([]);
    const names = ((h.server.requests[3]?.body?.tools ?? []) as { function: { name: string } }[]).map(
      (t) => t.function.name,
    );
    expect(names).toEqual(['create_subtask', 'wait_for_subtasks', 'browser_handoff', 'complete']);
    expect(replay[0]?.content).toContain('# Movement: work');
  });

  it('P6.06 P6.23 a comment follow-up thread and a Continue: all threads replayed oldest first, colliding ids renamed', async () => {
    const h = await engineHarness([
      { toolCalls: [{ name: 'no_tool', arguments: { n: 1 }, id: 'gen_call_1' }] },
      complete('first'),
      { toolCalls: [{ name: 'no_tool', arguments: { n: 2 }, id: 'gen_call_1' }] },
      complete('second'),
      complete('third'),
    ]);
    const { taskId, jobId } = h.createTask('First request');
    await h.waitFor(jobId, SETTLED);
    await new Promise((r) => setTimeout(r, 5));
    const followup = h.maestro.invoke('addComment', { taskId, body: 'Second request' });
    await h.waitFor(followup.job?.id as string, SETTLED);
    await new Promise((r) => setTimeout(r, 5));
    const { job } = h.maestro.invoke('continueTask', { taskId });
    expect((await h.waitFor(job.id, SETTLED)).status).toBe('succeeded');
    const replay = messages(h.server.requests[4]);
    expect(calls(replay)).toEqual(['no_tool:gen_call_1', 'no_tool:gen_call_1~2']);
    const results = replay.filter((m) => m.role === 'tool').map((m) => m.tool_call_id);
    expect(results).toEqual(['gen_call_1', 'gen_call_1~2']);
    const text = replay.map((m) => m.content ?? '').join('\n');
    expect(text.indexOf('First request')).toBeLessThan(text.indexOf('Second request'));
  });

  it('P5.09 P6.02 Continue with nothing to replay puts the handoff into the dynamic context', async () => {
    const h = await engineHarness([complete('Made the thing.'), complete('again')]);
    const { taskId, jobId } = h.createTask('Make a thing');
    await h.waitFor(jobId, SETTLED);
    // Lose the transcript: nothing can be replayed.
    transcriptOf(h.maestro, taskId).replace('');
    const { job } = h.maestro.invoke('continueTask', { taskId });
    await h.waitFor(job.id, SETTLED);
    const replay = messages(h.server.requests[1]);
    expect(replay.map((m) => m.role)).toEqual(['system', 'user']);
    expect(replay[1]?.content).toContain('Handoff: The previous job ended succeeded: Made the thing.');
  });
});

import { describe, expect, it } from 'vitest';
import { complete, engineHarness, SETTLED, transition } from '../../test-support/engine-harness';
import type { RecordedRequest } from '../../test-support/scripted-llm-server';

type Msg = { role: string; content: string | null };
const messages = (r: RecordedRequest | undefined) => (r?.body?.messages ?? []) as Msg[];
const tools = (r: RecordedRequest | undefined) => JSON.stringify(r?.body?.tools);

describe('request shape: the prompt layout is a contract with the cache', () => {
  it('P4.02 P5.01 P5.02 P5.03 P5.04 P5.10 P5.15 across movement transitions tools are byte-identical and every request extends the previous one', async () => {
    const h = await engineHarness([
      transition('implement', 'the plan'),
      transition('review'),
      transition('implement', 'fix it'),
      transition('review'),
      complete(),
    ]);
    const { jobId } = h.createTask('Build it', { pieceId: 'plan-implement-review' });
    expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
    const reqs = h.server.requests;
    expect(reqs).toHaveLength(5);
    const toolNames = ((reqs[0]?.body?.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
    expect(toolNames).toEqual(['create_subtask', 'wait_for_subtasks', 'browser_handoff', 'transition', 'complete']);
    const transitionTool = (
      (reqs[0]?.body?.tools ?? []) as {
        function: { name: string; parameters: { properties: { next: { enum: string[] } } } };
      }[]
    ).find((t) => t.function.name === 'transition');
    expect(transitionTool?.function.parameters.properties.next.enum).toEqual(['implement', 'review']);
    for (let i = 1; i < reqs.length; i++) {
      expect(tools(reqs[i]), `tools of request ${i}`).toBe(tools(reqs[0]));
      const prev = messages(reqs[i - 1]);
      const next = messages(reqs[i]);
      expect(next.length).toBeGreaterThan(prev.length);
      for (let j = 0; j < prev.length; j++)
        expect(JSON.stringify(next[j]), `request ${i} message ${j}`).toBe(JSON.stringify(prev[j]));
    }
    for (const r of reqs) {
      const roles = messages(r).map((m) => m.role);
      expect(roles[0]).toBe('system');
      expect(roles.filter((x) => x === 'system')).toHaveLength(1);
    }
  });

  it('P4.01 P5.05 P5.07 P5.08 P5.14 a new job: [system(static + start guidance), user(dynamic + instruction)]; complete last, no transition', async () => {
    const h = await engineHarness([complete()]);
    const { jobId } = h.createTask('Tidy the README');
    await h.waitFor(jobId, SETTLED);
    const first = messages(h.server.requests[0]);
    expect(first.map((m) => m.role)).toEqual(['system', 'user']);
    expect(first[0]?.content).toContain('# Movement: work');
    expect(first[0]?.content).not.toMatch(/Current time|Tidy the README/);
    expect(first[1]?.content).toMatch(/^# Context\nCurrent time: /);
    expect(first[1]?.content).toContain('# Task\nTidy the README');
    const names = ((h.server.requests[0]?.body?.tools ?? []) as { function: { name: string } }[]).map(
      (t) => t.function.name,
    );
    expect(names).toEqual(['create_subtask', 'wait_for_subtasks', 'browser_handoff', 'complete']);
  });

  it('P5.06 P5.19 P3.03 P6.24 a follow-up job of the same piece and start movement has a byte-identical system message and no replay', async () => {
    const h = await engineHarness([complete('first'), complete('second')]);
    const { taskId, jobId } = h.createTask('First thing');
    await h.waitFor(jobId, SETTLED);
    await new Promise((r) => setTimeout(r, 5));
    const followup = h.maestro.invoke('addComment', { taskId, body: 'And another thing' });
    expect(followup.disposition).toBe('followup_job');
    await h.waitFor(followup.job?.id as string, SETTLED);
    const [a, b] = [messages(h.server.requests[0]), messages(h.server.requests[1])];
    expect(b[0]?.content).toBe(a[0]?.content);
    expect(b.map((m) => m.role)).toEqual(['system', 'user']);
    expect(b[1]?.content).toContain('# Follow-up from the user\nAnd another thing');
    expect(b[1]?.content).not.toBe(a[1]?.content);
  });
});

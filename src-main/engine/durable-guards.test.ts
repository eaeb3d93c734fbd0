// The loop guards hold across a park, a retry and a restart of the host (issue 24): the movements entered (P3.08), a
// movement's revisits (P3.09), its iterations and the repeated-call count (P4.13) go on from what the job's lineage
// stored, so a model that loops through approvals, retries or restarts is still stopped at the limit — and TAKT's
// {iteration} / {step_iteration} go on counting. Each script ends with a reply that would let the job succeed had a
// guard forgotten its count.
import { describe, expect, it } from 'vitest';
import {
  approvalTool,
  call,
  complete,
  engineHarness,
  type Harness,
  SETTLED,
  transition,
} from '../../test-support/engine-harness';
import { pingPongWorkspace } from '../../test-support/loop-pieces';
import type { RecordedRequest, ScriptEntry, ScriptedStep } from '../../test-support/scripted-llm-server';

type Msg = { role: string; content: string | null };
const lastUser = (r: RecordedRequest | undefined) =>
  ((r?.body?.messages ?? []) as Msg[]).findLast((m) => m.role === 'user')?.content ?? '';
const command = (id: string): ScriptedStep => ({
  toolCalls: [{ name: 'run_command', arguments: { command: `echo ${id}` }, id: `call_${id}` }],
});
const outage = (): ScriptEntry[] => Array.from({ length: 5 }, () => ({ fault: 'http' as const, status: 503 }));

/** Waits for the job to park on its one pending tool request, and approves it. */
async function approve(h: Harness, taskId: string, jobId: string): Promise<void> {
  expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'waiting_human', waitReason: 'tool_request' });
  const pending = h.maestro.invoke('listToolRequests', { taskId }).requests.filter((r) => r.status === 'pending');
  expect(pending).toHaveLength(1);
  h.maestro.invoke('decideToolRequest', { taskId, requestId: pending[0]?.id as string, decision: 'approve' });
}

/** Stops the host and starts another on the same data dir and model server. */
async function restart(h: Harness, ran: string[]): Promise<Harness> {
  await h.maestro.close();
  return engineHarness([], {
    dataDir: h.dataDir,
    workspace: h.workspace,
    server: h.server,
    tools: [approvalTool(ran)],
  });
}

describe('loop guards across parks, retries and restarts (issue 24)', () => {
  it('P3.08 a piece whose every movement parks for approval, looping a → b → a, fails at max_movements across approvals and a restart', async () => {
    const ran: string[] = [];
    const ws = pingPongWorkspace({ maxMovements: 4, revisitLimit: 10 });
    let h = await engineHarness(
      [
        command('x1'), // a, entry 1
        transition('b'),
        command('x2'), // b, entry 2
        transition('a'),
        command('x3'), // a, entry 3
        transition('b'),
        command('x4'), // b, entry 4
        transition('a'), // entry 5: past max_movements
        complete('reached only if the guard forgot'),
      ],
      { workspace: ws, tools: [approvalTool(ran)] },
    );
    const { taskId, jobId } = h.createTask('Loop', { pieceId: 'ping-pong' });
    await approve(h, taskId, jobId);
    await approve(h, taskId, jobId);
    h = await restart(h, ran);
    await approve(h, taskId, jobId);
    await approve(h, taskId, jobId);
    const failed = await h.waitFor(jobId, ['succeeded', 'failed']);
    expect(failed).toMatchObject({
      status: 'failed',
      error: 'movement loop: 4 movements entered, the piece allows 4 (max_movements)',
    });
    expect(ran).toEqual(['echo x1', 'echo x2', 'echo x3', 'echo x4']);
    expect(h.server.requests).toHaveLength(8);
    // TAKT's {iteration} and {step_iteration} went on across the parks and the restart.
    expect(lastUser(h.server.requests[2])).toContain('Step 2 of 4, time 1 in b.');
    expect(lastUser(h.server.requests[4])).toContain('Step 3 of 4, time 2 in a.');
    expect(lastUser(h.server.requests[6])).toContain('Step 4 of 4, time 2 in b.');
  }, 60_000);

  it('P3.08 P3.15 a question is no way around max_movements: the answer’s follow-up job goes on with the asking job’s count', async () => {
    const ws = pingPongWorkspace({ maxMovements: 3, revisitLimit: 10 });
    const h = await engineHarness(
      [
        transition('b'), // a 1 → b 2
        complete('Which way?', 'needs_user_input'), // parks in b
        transition('a'), // the follow-up resumes in b: a 3
        transition('b'), // b 4: past max_movements
        complete('reached only if the guard forgot'),
      ],
      { workspace: ws },
    );
    const { taskId, jobId } = h.createTask('Loop', { pieceId: 'ping-pong' });
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'waiting_human', waitReason: 'ask' });
    const answer = h.maestro.invoke('addComment', { taskId, body: 'Go on' });
    expect(answer.disposition).toBe('followup_job');
    const failed = await h.waitFor(answer.job?.id as string, ['succeeded', 'failed']);
    expect(failed).toMatchObject({
      status: 'failed',
      error: 'movement loop: 3 movements entered, the piece allows 3 (max_movements)',
    });
    expect(lastUser(h.server.requests[2])).toContain('Go on');
    expect(lastUser(h.server.requests[3])).toContain('Step 3 of 3, time 2 in a.');
  }, 30_000);

  it('P3.09 a movement revisited past the revisit limit across a retry', async () => {
    const ws = pingPongWorkspace({ maxMovements: 100, revisitLimit: 1 });
    const h = await engineHarness(
      [
        transition('b'), // a 1 → b 1
        ...outage(), // the job goes to retry in b
        transition('a'), // a 2 (one revisit)
        transition('b'), // b 2
        transition('a'), // a 3: past the revisit limit
        complete('reached only if the guard forgot'),
      ],
      { workspace: ws, retryDelayMs: 50 },
    );
    const { jobId } = h.createTask('Loop', { pieceId: 'ping-pong' });
    const failed = await h.waitFor(jobId, ['succeeded', 'failed'], 20_000);
    expect(failed).toMatchObject({
      status: 'failed',
      error: 'movement loop: a was revisited more than 1 times (revisit_limit)',
    });
    expect(failed.attempt).toBeGreaterThan(1); // it went through retry
    expect(h.server.requests).toHaveLength(9);
  }, 30_000);

  it('P4.13 the same call repeated across a retry is still a tool loop', async () => {
    const same = call('no_such_tool', { same: true });
    const h = await engineHarness(
      [same, same, same, ...outage(), same, same, complete('reached only if the guard forgot')],
      { retryDelayMs: 50 },
    );
    const { jobId } = h.createTask('x');
    const failed = await h.waitFor(jobId, ['succeeded', 'failed'], 20_000);
    expect(failed).toMatchObject({ status: 'failed', errorCode: 'tool_loop' });
    expect(failed.attempt).toBeGreaterThan(1); // it went through retry
    expect(failed.error).toBe('tool loop: no_such_tool was called 5 times with the same arguments');
    expect(h.server.requests).toHaveLength(10);
  }, 30_000);

  it('P4.13 a movement’s iterations go on across a park for approval: the limit holds', async () => {
    const ran: string[] = [];
    const ws = pingPongWorkspace({ maxMovements: 10, revisitLimit: 10, maxIterations: 3 });
    const h = await engineHarness(
      [
        call('no_such_tool', { i: 1 }),
        command('x1'),
        call('no_such_tool', { i: 2 }),
        complete('reached only if the guard forgot'),
      ],
      { workspace: ws, tools: [approvalTool(ran)] },
    );
    const { taskId, jobId } = h.createTask('Loop', { pieceId: 'ping-pong' });
    await approve(h, taskId, jobId);
    const failed = await h.waitFor(jobId, ['succeeded', 'failed']);
    expect(failed).toMatchObject({ status: 'failed', errorCode: 'iteration_limit' });
    expect(failed.error).toMatch(/movement a reached its limit of 3 iterations/);
    expect(ran).toEqual(['echo x1']);
    expect(h.server.requests).toHaveLength(3);
    // The last step, recorded behind a request the limit never let go out, is stored before the job failed.
    const answered = h.events.findLastIndex((e) => e.type === 'tool.finished');
    const ended = h.events.findIndex((e) => e.type === 'job.changed' && e.job.status === 'failed');
    expect(answered).toBeGreaterThan(-1);
    expect(answered).toBeLessThan(ended);
  }, 30_000);

  it('a new Invoke (the subtasks’ results) starts the call counts over: waking with news is no loop', async () => {
    // The parent starts the same subtask and waits for it, five times, each time woken by its result (a Notify).
    const respond: ScriptEntry = (request) => {
      const messages = (request.body?.messages ?? []) as Msg[];
      if (JSON.stringify(messages[1]).includes('Do a part')) return complete('part done');
      const started = messages.filter((m) => m.role === 'tool' && m.content?.startsWith('Subtask ')).length;
      const last = messages.at(-1);
      if (last?.role === 'tool' && last.content?.startsWith('Subtask ')) return call('wait_for_subtasks', {});
      return started < 5 ? call('create_subtask', { instruction: 'Do a part' }) : complete('all parts done');
    };
    const h = await engineHarness(Array.from({ length: 30 }, () => respond));
    const { jobId } = h.createTask('Parts');
    expect(await h.waitFor(jobId, ['succeeded', 'failed'], 30_000)).toMatchObject({
      status: 'succeeded',
      result: 'all parts done',
    });
  }, 40_000);
});

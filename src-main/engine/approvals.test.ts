import { describe, expect, it } from 'vitest';
import { approvalTool, complete, engineHarness, SETTLED } from '../../test-support/engine-harness';
import type { RecordedRequest } from '../../test-support/scripted-llm-server';

type Msg = { role: string; content: string | null; tool_call_id?: string };
const messages = (r: RecordedRequest | undefined) => (r?.body?.messages ?? []) as Msg[];

const runCommand = (command: string, id: string) => ({ name: 'run_command', arguments: { command }, id });

describe('tool and package approvals through the Worker, engine and DB', () => {
  it('P3.16 P4.34 P2.23 P7.03 P7.13 P9.05 approve once: the job parks, resumes in its movement, and the model gets the real output', async () => {
    const ran: string[] = [];
    const h = await engineHarness([{ toolCalls: [runCommand('npm test', 'call_a')] }, complete('tests pass')], {
      tools: [approvalTool(ran)],
    });
    const { taskId, jobId } = h.createTask('Run the tests');
    const parked = await h.waitFor(jobId, SETTLED);
    expect(parked).toMatchObject({ status: 'waiting_human', waitReason: 'tool_request', resumeMovement: 'work' });
    const { requests } = h.maestro.invoke('listToolRequests', { taskId });
    expect(requests).toMatchObject([
      { tool: 'run_command', summary: 'Run `npm test`', status: 'pending', callId: 'call_a' },
    ]);
    expect(() => h.maestro.invoke('addComment', { taskId, body: 'hurry' })).toThrow(/approve or deny/);
    expect(ran).toEqual([]);

    h.maestro.invoke('decideToolRequest', { taskId, requestId: requests[0]?.id as string, decision: 'approve' });
    const done = await h.waitFor(jobId, ['succeeded', 'failed']);
    expect(done.status).toBe('succeeded');
    expect(ran).toEqual(['npm test']);
    const resumed = messages(h.server.requests[1]);
    expect(resumed.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_a', content: 'exit 0\nnpm test output' });
    // The resumed request extends the parked one: same system, same turns, the answer appended.
    const before = messages(h.server.requests[0]);
    for (let i = 0; i < before.length; i++) expect(resumed[i]).toEqual(before[i]);
    const invokes = h.maestro.store.logEntries.listForTask(taskId).filter((e) => e.kind === 'Invoke');
    expect(invokes).toHaveLength(1);
  });

  it('P7.05 deny: nothing runs and the model receives an Error result for that call', async () => {
    const ran: string[] = [];
    const h = await engineHarness([{ toolCalls: [runCommand('rm -rf build', 'call_x')] }, complete('ok')], {
      tools: [approvalTool(ran)],
    });
    const { taskId, jobId } = h.createTask('Clean');
    await h.waitFor(jobId, SETTLED);
    const [request] = h.maestro.invoke('listToolRequests', { taskId }).requests;
    h.maestro.invoke('decideToolRequest', { taskId, requestId: request?.id as string, decision: 'deny' });
    const ended = await h.waitFor(jobId, ['succeeded', 'failed']);
    expect(ended.error).toBeNull();
    expect(ran).toEqual([]);
    const last = messages(h.server.requests[1]).at(-1);
    expect(last?.tool_call_id).toBe('call_x');
    expect(last?.content).toMatch(/^Error: the user denied this call/);
  });

  it("P7.05 deny with a reason: the model receives the person's words in the Error result; approve takes none", async () => {
    const ran: string[] = [];
    const h = await engineHarness([{ toolCalls: [runCommand('git push --force', 'call_p')] }, complete('ok')], {
      tools: [approvalTool(ran)],
    });
    const { taskId, jobId } = h.createTask('Publish');
    await h.waitFor(jobId, SETTLED);
    const [request] = h.maestro.invoke('listToolRequests', { taskId }).requests;
    const requestId = request?.id as string;
    expect(() =>
      h.maestro.invoke('decideToolRequest', { taskId, requestId, decision: 'approve', reason: 'fine' }),
    ).toThrow(/reason: a reason goes with deny only/);
    const decided = h.maestro.invoke('decideToolRequest', {
      taskId,
      requestId,
      decision: 'deny',
      reason: '  never force-push main; open a PR instead  ',
    });
    expect(decided.request).toMatchObject({ status: 'denied', denyReason: 'never force-push main; open a PR instead' });
    await h.waitFor(jobId, ['succeeded', 'failed']);
    expect(ran).toEqual([]);
    expect(messages(h.server.requests[1]).at(-1)?.content).toBe(
      'Error: the user denied this call, saying: "never force-push main; open a PR instead". Do not repeat it; take that into account, find another way or ask the user.',
    );
    // The chat gets the denial as data (the person's reason), so it never has to show or parse the model's text.
    const denial = { by: 'person', reason: 'never force-push main; open a PR instead' };
    const { steps } = h.maestro.invoke('getTaskRecent', { taskId });
    const answered = steps.flatMap((s) => s.toolCalls).find((c) => c.id === 'call_p');
    expect(answered?.result).toMatchObject({ ok: false, denial });
    const finished = h.events.flatMap((e) => (e.type === 'tool.finished' && e.callId === 'call_p' ? [e] : []));
    expect(finished.map((e) => e.denial)).toEqual([denial]);
  });

  it('P4.44 P4.45 two calls needing approval park once; a co-emitted complete gets an Error; queued only when both are decided', async () => {
    const ran: string[] = [];
    const h = await engineHarness(
      [
        {
          toolCalls: [
            runCommand('a', 'c1'),
            runCommand('b', 'c2'),
            { name: 'complete', arguments: { status: 'success', message: 'too early' }, id: 'c3' },
          ],
        },
        complete('both done'),
      ],
      { tools: [approvalTool(ran)] },
    );
    const { taskId, jobId } = h.createTask('Two things');
    await h.waitFor(jobId, SETTLED);
    const { requests } = h.maestro.invoke('listToolRequests', { taskId });
    expect(requests.map((r) => r.callId)).toEqual(['c1', 'c2']);
    h.maestro.invoke('decideToolRequest', { taskId, requestId: requests[0]?.id as string, decision: 'approve' });
    expect(h.maestro.store.jobs.get(jobId)?.status).toBe('waiting_human');
    h.maestro.invoke('decideToolRequest', { taskId, requestId: requests[1]?.id as string, decision: 'deny' });
    expect((await h.waitFor(jobId, ['succeeded', 'failed'])).result).toBe('both done');
    expect(ran).toEqual(['a']);
    const resumed = messages(h.server.requests[1]);
    const results = Object.fromEntries(
      resumed.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m.content]),
    );
    expect(results.c3).toMatch(/^Error: not processed/);
    expect(results.c1).toBe('exit 0\na output');
    expect(results.c2).toMatch(/^Error: the user denied/);
  });

  it('P7.17 P1.27 the wait survives a restart: stop the host while parked, start again, approve, and the job finishes', async () => {
    const ran: string[] = [];
    const first = await engineHarness([{ toolCalls: [runCommand('make', 'm1')] }, complete('built')], {
      tools: [approvalTool(ran)],
    });
    const { taskId, jobId } = first.createTask('Build');
    await first.waitFor(jobId, SETTLED);
    await first.maestro.close();
    const second = await engineHarness([], {
      tools: [approvalTool(ran)],
      dataDir: first.dataDir,
      workspace: first.workspace,
      server: first.server,
    });
    const [request] = second.maestro.invoke('listToolRequests', { taskId }).requests;
    expect(request?.status).toBe('pending');
    second.maestro.invoke('decideToolRequest', { taskId, requestId: request?.id as string, decision: 'approve' });
    expect((await second.waitFor(jobId, ['succeeded', 'failed'])).result).toBe('built');
    expect(ran).toEqual(['make']);
  });
});

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, complete, engineHarness, SETTLED, transition } from '../../test-support/engine-harness';
import { pingPongWorkspace } from '../../test-support/loop-pieces';
import { transcriptOf } from '../../test-support/transcript-lines';
import { parseTranscript } from './conversation';
import { PieceCatalog } from './pieces/catalog';
import { chooseStartMovement } from './pieces/schema';

const pieces = new PieceCatalog(path.resolve(__dirname, '..', '..', 'pieces'));

describe('runPiece through the Worker and a scripted model', () => {
  it('P2.37 P3.14 P4.03 P4.47 the default piece completes: succeeded, result comment, transcript written (without tools)', async () => {
    const h = await engineHarness([complete('All done.')]);
    const { taskId, jobId } = h.createTask('Say hello');
    const job = await h.waitFor(jobId, SETTLED);
    expect(job.status).toBe('succeeded');
    expect(job.result).toBe('All done.');
    const { comments } = h.maestro.invoke('getTask', { taskId });
    expect(comments.map((c) => [c.author, c.kind, c.body])).toContainEqual(['agent', 'result', 'All done.']);
    const lines = parseTranscript(transcriptOf(h.maestro, taskId).read());
    expect(lines.map((l) => l.message.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(JSON.stringify(lines)).not.toContain('"parameters"');
    await h.maestro.worker?.idle();
    const metrics = h.events.filter((e) => e.type === 'job.metrics');
    expect(metrics).toHaveLength(1);
    expect(metrics[0]).toMatchObject({ jobId, status: 'succeeded', attempt: 1, usage: { llmCalls: 1 } });
    expect(metrics[0]?.seq).toBeGreaterThan(0);
    h.server.expectEmpty();
  });

  it('P3.01 P3.13 P4.51 P5.15 plan-implement-review runs through its movements to completion', async () => {
    const h = await engineHarness([
      transition('implement', 'plan'),
      transition('review'),
      complete('Reviewed and done.'),
    ]);
    const { jobId } = h.createTask('Build it', { pieceId: 'plan-implement-review' });
    const job = await h.waitFor(jobId, SETTLED);
    expect(job.status).toBe('succeeded');
    const entered = h.events.flatMap((e) => (e.type === 'movement.entered' ? [e.movement] : []));
    expect(entered).toEqual(['plan', 'implement', 'review']);
    // The guidance of each later movement arrives as a user message appended at the end.
    const last = h.server.requests.at(-1)?.body?.messages as { role: string; content: string }[];
    expect(last.filter((m) => m.role === 'system')).toHaveLength(1);
    expect(last.at(-1)?.role).toBe('user');
    expect(last.at(-1)?.content).toContain('# Movement: review');
    // P3.01 one Conversation and one log for the job across its three movements: one thread, one Invoke.
    const transcript = transcriptOf(h.maestro, job.taskId).read();
    expect(parseTranscript(transcript).filter((line) => line.message.role === 'system')).toHaveLength(1);
    expect(h.maestro.invoke('getUsage', { taskId: job.taskId }).invokes).toHaveLength(1);
  });

  it('P4.52 a transition not allowed from here gets an Error result and the movement goes on', async () => {
    const h = await engineHarness([transition('review'), transition('implement'), transition('review'), complete()]);
    const { jobId } = h.createTask('Build it', { pieceId: 'plan-implement-review' });
    expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
    const second = h.server.requests[1]?.body?.messages as { role: string; content: string }[];
    const result = second.at(-1) as { role: string; content: string };
    expect(result.role).toBe('tool');
    expect(result.content).toMatch(/^Error: transition to "review" is not allowed \(allowed from plan: implement\)/);
  });

  it('P4.26 P4.53 complete and transition in one reply: the first valid one wins, the other gets an Error', async () => {
    const h = await engineHarness([
      {
        toolCalls: [
          { name: 'transition', arguments: { next: 'nowhere' } },
          { name: 'complete', arguments: { status: 'success', message: 'first valid' } },
          { name: 'transition', arguments: { next: 'implement' } },
        ],
      },
    ]);
    const { taskId, jobId } = h.createTask('x', { pieceId: 'plan-implement-review' });
    const job = await h.waitFor(jobId, SETTLED);
    expect(job.status).toBe('succeeded');
    expect(job.result).toBe('first valid');
    const lines = parseTranscript(transcriptOf(h.maestro, taskId).read());
    const results = lines
      .filter((l) => l.message.role === 'tool')
      .map((l) => (l.message as { content: string }).content);
    expect(results[0]).toMatch(/^Error: transition to "nowhere"/);
    expect(results[1]).toBe('Task complete.');
    expect(results[2]).toMatch(/^Error: ignored/);
  });

  it('P3.15 P4.48 P2.22 P5.18 ASK parks the job; the answer starts a follow-up in the asking movement with the Q&A', async () => {
    const h = await engineHarness([
      transition('work'),
      complete('Which colour?', 'needs_user_input'),
      (req) => {
        const user = ((req.body?.messages ?? []) as { role: string; content: string }[])[1]?.content ?? '';
        return complete(user.includes('You asked: Which colour?') && user.includes('answered: Blue') ? 'ok' : 'no Q&A');
      },
    ]);
    const { taskId, jobId } = h.createTask('Paint it', { pieceId: 'ask-first' });
    const asked = await h.waitFor(jobId, SETTLED);
    expect(asked).toMatchObject({ status: 'waiting_human', waitReason: 'ask', resumeMovement: 'work', askCount: 1 });
    const answer = h.maestro.invoke('addComment', { taskId, body: 'Blue' });
    expect(answer.disposition).toBe('followup_job');
    const followup = await h.waitFor(answer.job?.id as string, SETTLED);
    expect(followup).toMatchObject({ status: 'succeeded', result: 'ok' });
    // The follow-up's system message starts at the asking movement (P5.18), in a new thread (P6.24).
    const sys = ((h.server.requests[2]?.body?.messages ?? []) as { content: string }[])[0]?.content;
    expect(sys).toContain('# Movement: work');
  });

  it('P3.17 P4.49 P2.30 complete failure fails the job at once, without retry', async () => {
    const h = await engineHarness([complete('Cannot be done.', 'failure')]);
    const { jobId } = h.createTask('x');
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'failed', error: 'Cannot be done.', attempt: 1 });
  });

  it('P3.08 movements entered past max_movements stop the job as a movement loop, the limit named', async () => {
    // Revisits allowed aplenty: the max-movements guard is the one that fires.
    const ws = pingPongWorkspace({ maxMovements: 5, revisitLimit: 10 });
    const loop = [transition('b'), transition('a'), transition('b'), transition('a'), transition('b')];
    const h = await engineHarness([...loop, complete('reached only past the limit')], { workspace: ws });
    const { jobId } = h.createTask('x', { pieceId: 'ping-pong' });
    const job = await h.waitFor(jobId, SETTLED);
    expect(job).toMatchObject({
      status: 'failed',
      error: 'movement loop: 5 movements entered, the piece allows 5 (max_movements)',
    });
    const entered = h.events.flatMap((e) => (e.type === 'movement.entered' ? [e.movement] : []));
    expect(entered).toEqual(['a', 'b', 'a', 'b', 'a']);
    expect(h.server.requests).toHaveLength(5);
  });

  it('P3.09 a movement revisited past the revisit limit stops the job as a movement loop, the limit named', async () => {
    const loop: ReturnType<typeof transition>[] = [transition('implement')];
    for (let i = 0; i < 6; i++) loop.push(transition('review'), transition('implement'));
    const h = await engineHarness(loop);
    const { jobId } = h.createTask('x', { pieceId: 'plan-implement-review' });
    const job = await h.waitFor(jobId, SETTLED);
    expect(job).toMatchObject({
      status: 'failed',
      error: 'movement loop: implement was revisited more than 4 times (revisit_limit)',
    });
    // implement's sixth entry is the twelfth movement: within max_movements (12), past the revisit limit (4).
    expect(h.events.filter((e) => e.type === 'movement.entered')).toHaveLength(11);
  });

  it('P3.04 P3.05 P3.06 P3.07 start movement: resume > override > piece start; an unknown name falls through', () => {
    const piece = pieces.get('plan-implement-review');
    if (!piece) throw new Error('missing piece');
    const warnings: string[] = [];
    expect(chooseStartMovement(piece, 'review', null, (w) => warnings.push(w)).name).toBe('review');
    expect(chooseStartMovement(piece, null, null, (w) => warnings.push(w)).name).toBe('plan');
    expect(chooseStartMovement(piece, null, 'review', (w) => warnings.push(w)).name).toBe('review');
    expect(chooseStartMovement(piece, 'implement', 'review', (w) => warnings.push(w)).name).toBe('implement');
    expect(chooseStartMovement(piece, 'gone', 'implement', (w) => warnings.push(w)).name).toBe('implement');
    expect(warnings).toEqual(['resumeMovement gone is not a movement of piece plan-implement-review; falling back']);
  });

  it('P4.30 P4.31 P4.50 unknown tools and broken arguments get Error results; the loop goes on', async () => {
    const h = await engineHarness([
      call('no_such_tool', {}),
      call('complete', '{"status": "success", "message"'),
      complete(),
    ]);
    const { jobId } = h.createTask('x');
    expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
    const m1 = h.server.requests[1]?.body?.messages as { content: string }[];
    expect(m1.at(-1)?.content).toMatch(/^Error: unknown tool no_such_tool/);
    const m2 = h.server.requests[2]?.body?.messages as { content: string }[];
    expect(m2.at(-1)?.content).toMatch(/^Error: complete: the arguments are not valid JSON/);
  });

  it('P4.24 P4.25 text-only replies get a warning; too many empty ones in a row fail the job', async () => {
    const h = await engineHarness([{ text: 'thinking…' }, complete()]);
    const { jobId } = h.createTask('x');
    expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
    const m = h.server.requests[1]?.body?.messages as { role: string; content: string }[];
    expect(m.at(-2)).toMatchObject({ role: 'assistant', content: 'thinking…' });
    expect(m.at(-1)?.role).toBe('user');
    expect(m.at(-1)?.content).toMatch(/without calling a tool/);

    // Replies with text become the outcome after the nudges (agent-loop.test.ts); replies with none fail.
    const h2 = await engineHarness([{ text: '' }, { text: '' }, { text: '' }, { text: '' }]);
    const second = h2.createTask('x');
    const failed = await h2.waitFor(second.jobId, SETTLED);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/4 times in a row without calling a tool/);
  });

  it('P4.13 a model that never calls complete hits the iteration limit', async () => {
    const h = await engineHarness(Array.from({ length: 60 }, (_, i) => call('no_such_tool', { i })));
    const { jobId } = h.createTask('x');
    const job = await h.waitFor(jobId, SETTLED, 20_000);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/reached its limit of 60 iterations/);
  });

  it('P4.27 the same call repeated up to the limit stops the job as a tool loop', async () => {
    const h = await engineHarness(Array.from({ length: 6 }, () => call('no_such_tool', { same: true })));
    const { jobId } = h.createTask('x');
    const job = await h.waitFor(jobId, SETTLED);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/tool loop: no_such_tool was called 5 times/);
  });

  it('P4.09 a job past its deadline stops at the loop top and fails with deadline_exceeded', async () => {
    // A margin that a loaded machine's job start cannot eat: the first request goes well inside the deadline, its
    // reply comes well after it (30 ms against 60 ms let a slow start pass the deadline before the first request).
    const h = await engineHarness([{ ...call('no_such_tool', {}), delayMs: 900 }, complete()], {
      options: { deadlineMs: 400 },
    });
    const { jobId } = h.createTask('x');
    const job = await h.waitFor(jobId, SETTLED);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/^deadline_exceeded/);
    expect(h.server.requests).toHaveLength(1);
  });

  it('P10.09 the task attachments reach the model: text inline, images named', async () => {
    const h = await engineHarness([complete()]);
    const attachments = [
      { name: 'notes.md', mediaType: 'text/markdown', data: Buffer.from('# Notes\nship on Friday').toString('base64') },
      { name: 'shot.png', mediaType: 'image/png', data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0]).toString('base64') },
    ];
    const { jobId } = h.createTask('Read the notes', { attachments });
    await h.waitFor(jobId, SETTLED);
    const user = ((h.server.requests[0]?.body?.messages ?? []) as { content: string }[])[1]?.content ?? '';
    expect(user).toContain('# Attachments\n## notes.md\n```\n# Notes\nship on Friday\n```');
    expect(user).toContain('## shot.png\n(a binary file of 5 bytes; its content is not shown here)');
  });
});

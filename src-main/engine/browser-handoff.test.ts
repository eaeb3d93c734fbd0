// browser_handoff: a step only the person can do in their browser parks the job waiting_human / browser (P4.41,
// P2.25); their reply wakes it (P1.12), the call is answered on resume and the reply arrives as the next user message;
// the wait survives a restart of the host.
import { describe, expect, it } from 'vitest';
import { call, complete, engineHarness, SETTLED } from '../../test-support/engine-harness';
import type { ChatRequestBody } from '../../test-support/scripted-llm-server';
import { BROWSER_HANDOFF_RESUMED } from './browser-handoff-tool';

const STEP = { url: 'https://accounts.example.com/login', instruction: 'Sign in with your work account.' };

type Message = { role: string; content?: unknown; tool_call_id?: string };
const messagesOf = (body: ChatRequestBody | null): Message[] => (body?.messages ?? []) as Message[];

describe('browser_handoff', () => {
  it('P4.41 P2.25 P3.16 P1.12 parks on the browser step, the reply wakes the job, the call is answered and it finishes', async () => {
    const h = await engineHarness([call('browser_handoff', STEP, 'call_browser'), complete('Signed in and done.')]);
    const { taskId, jobId } = h.createTask('Download the report behind the login');
    const parked = await h.waitFor(jobId, SETTLED);
    expect(parked).toMatchObject({ status: 'waiting_human', waitReason: 'browser', resumeMovement: 'work' });
    const { comments } = h.maestro.invoke('getTask', { taskId });
    expect(comments.at(-1)).toMatchObject({
      author: 'system',
      kind: 'comment',
      notice: { code: 'browser_step', instruction: STEP.instruction, url: STEP.url },
    });
    expect(comments.at(-1)?.body).toContain(STEP.instruction);
    expect(comments.at(-1)?.body).toContain(STEP.url);
    expect(h.maestro.attention.list()).toEqual([
      expect.objectContaining({ taskId, jobId, reason: 'browser', detail: expect.stringContaining(STEP.url) }),
    ]);
    expect(h.server.requests).toHaveLength(1);

    const reply = h.maestro.invoke('addComment', { taskId, body: 'Done, I am signed in.' });
    expect(reply).toMatchObject({ disposition: 'interjection', job: { id: jobId, status: 'queued' } });
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'succeeded', result: 'Signed in and done.' });

    const resumed = messagesOf(h.server.requests[1]?.body ?? null);
    const answerAt = resumed.findIndex((m) => m.role === 'tool' && m.tool_call_id === 'call_browser');
    expect(resumed[answerAt]).toMatchObject({ content: BROWSER_HANDOFF_RESUMED });
    // The reply comes right after the answered call, once.
    expect(resumed[answerAt + 1]).toMatchObject({
      role: 'user',
      content: expect.stringContaining('Done, I am signed in.'),
    });
    expect(resumed.filter((m) => JSON.stringify(m).includes('Done, I am signed in.'))).toHaveLength(1);
    expect(h.maestro.attention.list()).toEqual([]);
  });

  it('P2.25 the browser wait survives a restart: stop while parked, start again, reply, and the job finishes', async () => {
    const first = await engineHarness([call('browser_handoff', STEP, 'call_b'), complete('finished after restart')]);
    const { taskId, jobId } = first.createTask('Needs a login');
    expect(await first.waitFor(jobId, SETTLED)).toMatchObject({ status: 'waiting_human', waitReason: 'browser' });
    await first.maestro.close();
    const second = await engineHarness([], {
      dataDir: first.dataDir,
      workspace: first.workspace,
      server: first.server,
    });
    expect(second.maestro.attention.list()).toEqual([expect.objectContaining({ jobId, reason: 'browser' })]);
    second.maestro.invoke('addComment', { taskId, body: 'ok, done' });
    expect(await second.waitFor(jobId, SETTLED)).toMatchObject({
      status: 'succeeded',
      result: 'finished after restart',
    });
  });

  it('a URL that is not http(s) gets an Error result and the loop goes on', async () => {
    const h = await engineHarness([
      call('browser_handoff', { url: 'file:///etc/passwd', instruction: 'Open it' }, 'call_bad'),
      complete('gave up'),
    ]);
    const { jobId } = h.createTask('Try');
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'succeeded' });
    const answer = messagesOf(h.server.requests[1]?.body ?? null).find(
      (m) => m.role === 'tool' && m.tool_call_id === 'call_bad',
    );
    expect(answer?.content).toMatch(/^Error: browser_handoff: invalid arguments — url: must be an http/);
  });

  it('one thing at a time: a browser step asked in the same reply as an approval is refused, the approval waits', async () => {
    const h = await engineHarness(
      [
        {
          toolCalls: [
            { id: 'call_cmd', name: 'run_command', arguments: { command: 'make deploy' } },
            { id: 'call_br', name: 'browser_handoff', arguments: STEP },
          ],
        },
      ],
      { policyTools: true },
    );
    const { jobId } = h.createTask('Deploy');
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'waiting_human', waitReason: 'tool_request' });
  });
});

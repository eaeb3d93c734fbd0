import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { complete, engineHarness, SETTLED } from '../../test-support/engine-harness';
import type { AnyToolDef } from '../tools/types';
import { AttentionProjection, type Notice } from './attention';

const asker: AnyToolDef = {
  name: 'run_command',
  description: 'Runs a command after approval.',
  parameters: z.strictObject({ command: z.string() }),
  readOnly: false,
  review: ({ command }: { command: string }) => ({ kind: 'ask', summary: `$ ${command}` }),
  async execute() {
    return { kind: 'result', ok: true, content: 'ok' };
  },
} as AnyToolDef;

describe('the notification projection', () => {
  it('P7.20 P10.12 P2.22 P2.23 waits become items and notices; resolving clears them; terminal states notify', async () => {
    const h = await engineHarness(
      [
        complete('Which branch?', 'needs_user_input'),
        { toolCalls: [{ name: 'run_command', arguments: { command: 'git push' } }] },
        complete('Pushed.'),
      ],
      { tools: [asker] },
    );
    const projection = new AttentionProjection(h.maestro.store).start();
    const notices: Notice[] = [];
    projection.onChange((n) => n && notices.push(n));

    const { taskId, jobId } = h.createTask('Push the release');
    await h.waitFor(jobId, SETTLED);
    expect(projection.list()).toMatchObject([{ taskId, reason: 'ask', detail: 'Which branch?' }]);
    expect(notices.at(-1)).toMatchObject({
      kind: 'ask',
      title: 'Push the release asks you a question',
      body: 'Which branch?',
    });

    const answer = h.maestro.invoke('addComment', { taskId, body: 'main' });
    const followup = answer.job?.id as string;
    await h.waitFor(followup, SETTLED);
    expect(projection.list()).toMatchObject([{ reason: 'tool_request', detail: '$ git push' }]);
    expect(notices.at(-1)).toMatchObject({
      kind: 'tool_request',
      title: 'Push the release wants to run a command',
      body: '$ git push',
    });

    const [request] = h.maestro.invoke('listToolRequests', { taskId }).requests;
    h.maestro.invoke('decideToolRequest', { taskId, requestId: request?.id as string, decision: 'approve' });
    await h.waitFor(followup, ['succeeded']);
    expect(projection.count).toBe(0);
    expect(notices.at(-1)).toMatchObject({ kind: 'succeeded', title: 'Push the release is done', body: 'Pushed.' });
    projection.dispose();
  });

  it('P7.17 a failed task is an item, rebuilt from the DB after a restart, and cleared by a new job', async () => {
    const h = await engineHarness([complete('No access.', 'failure'), complete('ok')]);
    const { taskId, jobId } = h.createTask('Deploy');
    await h.waitFor(jobId, SETTLED);
    const rebuilt = new AttentionProjection(h.maestro.store).start();
    expect(rebuilt.list()).toMatchObject([{ taskId, reason: 'failed', detail: 'No access.' }]);
    h.maestro.invoke('addComment', { taskId, body: 'try again' });
    expect(rebuilt.count).toBe(0);
    rebuilt.dispose();
  });
});

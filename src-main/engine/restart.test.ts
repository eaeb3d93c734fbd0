import { describe, expect, it } from 'vitest';
import { call, complete, engineHarness, SETTLED } from '../../test-support/engine-harness';

/** Stops the first host while the job waits and starts a second one on the same data dir and model server. */
async function restart(first: Awaited<ReturnType<typeof engineHarness>>) {
  await first.maestro.close();
  return engineHarness([], { dataDir: first.dataDir, workspace: first.workspace, server: first.server });
}

describe('every wait survives a restart of the host', () => {
  it('P2.22 P1.10 ASK: stop while asked, start again, answer, and the follow-up finishes', async () => {
    const first = await engineHarness([complete('Which file?', 'needs_user_input'), complete('answered and done')]);
    const { taskId, jobId } = first.createTask('Fix it');
    expect(await first.waitFor(jobId, SETTLED)).toMatchObject({ status: 'waiting_human', waitReason: 'ask' });
    const second = await restart(first);
    const answer = second.maestro.invoke('addComment', { taskId, body: 'main.ts' });
    expect(answer.disposition).toBe('followup_job');
    expect(await second.waitFor(answer.job?.id as string, SETTLED)).toMatchObject({ status: 'succeeded' });
  });

  it('P2.26 P2.32 waiting for subtasks: stop while the child is queued, start again, the child runs and wakes the parent', async () => {
    const first = await engineHarness([call('create_subtask', { instruction: 'child' }), complete('parent part')]);
    // The worker stops as the parent starts waiting, before it could claim the child.
    let stopped: Promise<void> | undefined;
    const off = first.maestro.store.subscribe((e) => {
      if (e.type === 'job.changed' && e.job.status === 'waiting_subtasks') stopped ??= first.maestro.worker?.stop();
    });
    const { jobId } = first.createTask('Parent');
    expect((await first.waitFor(jobId, SETTLED)).status).toBe('waiting_subtasks');
    off();
    await stopped;
    first.server.push(complete('child done'), complete('all done'));
    const second = await restart(first);
    expect(await second.waitFor(jobId, ['succeeded', 'failed'], 15_000)).toMatchObject({
      status: 'succeeded',
      result: 'all done',
    });
  });
});

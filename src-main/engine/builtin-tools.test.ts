import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, complete, engineHarness, SETTLED } from '../../test-support/engine-harness';
import type { RecordedRequest } from '../../test-support/scripted-llm-server';
import { machineSandbox } from '../../test-support/tools';

type Msg = { role: string; content: string | null; tool_call_id?: string };
const messages = (r: RecordedRequest | undefined) => (r?.body?.messages ?? []) as Msg[];

describe('the real built-in tools through the engine', () => {
  it('P4.35 P7.03 P7.04 read, write, then run_command after approval with scope task; the same command later runs without asking, another asks', async () => {
    const h = await engineHarness(
      [
        call('read_file', { path: 'notes.txt' }),
        call('write_file', { path: 'out/b.txt', content: 'written by the agent\n' }),
        call('run_command', { command: 'cat out/b.txt' }),
        call('run_command', { command: 'cat out/b.txt' }),
        call('run_command', { command: 'echo second' }),
        complete('done'),
      ],
      // The grant lets the same command run again without asking: only ever in the OS sandbox.
      { policyTools: true, sandbox: machineSandbox },
    );
    fs.writeFileSync(path.join(h.workspace, 'notes.txt'), 'hello from notes\n');
    const { taskId, jobId } = h.createTask('Use the tools');
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'waiting_human', waitReason: 'tool_request' });
    expect(messages(h.server.requests[1]).at(-1)?.content).toContain('hello from notes');
    expect(fs.readFileSync(path.join(h.workspace, 'out', 'b.txt'), 'utf8')).toBe('written by the agent\n');
    const [request] = h.maestro.invoke('listToolRequests', { taskId }).requests;
    expect(request?.summary).toContain('cat out/b.txt');
    h.maestro.invoke('decideToolRequest', {
      taskId,
      requestId: request?.id as string,
      decision: 'approve',
      scope: 'task',
    });
    expect(await h.waitFor(jobId, SETTLED, 30_000)).toMatchObject({ status: 'waiting_human' });
    expect(messages(h.server.requests[3]).at(-1)?.content).toContain('written by the agent');
    // The task grant covers the same command (it ran again, no second request), not another one.
    expect(messages(h.server.requests[4]).at(-1)?.content).toContain('written by the agent');
    const requests = h.maestro.invoke('listToolRequests', { taskId }).requests;
    expect(requests.map((r) => [r.summary.split('\n')[0], r.status])).toEqual([
      ['$ cat out/b.txt', 'approved'],
      ['$ echo second', 'pending'],
    ]);
    h.maestro.invoke('decideToolRequest', { taskId, requestId: requests[1]?.id as string, decision: 'approve' });
    expect((await h.waitFor(jobId, ['succeeded', 'failed'], 30_000)).status).toBe('succeeded');
    expect(messages(h.server.requests[5]).at(-1)?.content).toContain('second');
  });

  it('P4.33 a path outside the workspace gets an Error result and nothing is read', async () => {
    const h = await engineHarness([call('read_file', { path: '../../etc/passwd' }), complete()], { policyTools: true });
    const { jobId } = h.createTask('x');
    await h.waitFor(jobId, SETTLED);
    const result = messages(h.server.requests[1]).at(-1)?.content ?? '';
    expect(result).toMatch(/^Error/);
    expect(result).not.toContain('root:');
  });

  it('P2.18 a broken policy file fails the job with an error naming the file', async () => {
    const h = await engineHarness([complete()], { policyTools: true });
    fs.mkdirSync(path.join(h.workspace, '.maestro'), { recursive: true });
    fs.writeFileSync(path.join(h.workspace, '.maestro', 'policy.json'), '{ "tools": { "deny": 5 } }');
    const { jobId } = h.createTask('x');
    const job = await h.waitFor(jobId, SETTLED);
    expect(job.status).toBe('failed');
    expect(job.error).toContain(path.join('.maestro', 'policy.json'));
    expect(h.server.requests).toHaveLength(0);
  });
});

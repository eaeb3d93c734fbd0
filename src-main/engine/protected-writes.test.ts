// Issue 21, point 1, through the whole engine with a scripted model: write_file on `.git/config` (core.fsmonitor)
// under the default policy, which lets write_file run without asking, gets a card instead of a write; approving it
// writes it once; the task grant that approval made does not cover the next write to it, which asks again (P7.03,
// P7.04).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, complete, engineHarness, SETTLED } from '../../test-support/engine-harness';

const CONFIG = '[core]\n\trepositoryformatversion = 0\n';
const FIRST = '[core]\n\tfsmonitor = "sh .x"\n';
const SECOND = '[core]\n\tpager = "sh .y"\n';

describe('a write to a file that runs code outside the sandbox, through the engine', () => {
  it('P7.03 P7.04 write_file .git/config parks with a protected_file card; approved, it is written once; the grant does not cover the next one', async () => {
    const h = await engineHarness(
      [
        call('write_file', { path: '.git/config', content: FIRST }, 'w1'),
        call('write_file', { path: 'notes.md', content: 'ok\n' }, 'w2'),
        call('write_file', { path: '.git/config', content: SECOND }, 'w3'),
        complete('Done.'),
      ],
      { policyTools: true },
    );
    const config = path.join(h.workspace, '.git', 'config');
    fs.mkdirSync(path.dirname(config), { recursive: true });
    fs.writeFileSync(config, CONFIG);
    const { taskId, jobId } = h.createTask('Set up git');
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'waiting_human', waitReason: 'tool_request' });
    const [first] = h.maestro.invoke('listToolRequests', { taskId }).requests;
    expect(first).toMatchObject({
      tool: 'write_file',
      display: { kind: 'protected_file', path: '.git/config', reason: expect.stringContaining('fsmonitor') },
      summary: expect.stringContaining('+\tfsmonitor = "sh .x"'),
    });
    expect(fs.readFileSync(config, 'utf8')).toBe(CONFIG);

    h.maestro.invoke('decideToolRequest', {
      taskId,
      requestId: first?.id as string,
      decision: 'approve',
      scope: 'task',
    });
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'waiting_human', waitReason: 'tool_request' });
    expect(fs.readFileSync(config, 'utf8')).toBe(FIRST);
    // The ordinary write ran without a card; the second write to .git/config asks again despite the grant.
    expect(fs.readFileSync(path.join(h.workspace, 'notes.md'), 'utf8')).toBe('ok\n');
    const pending = h.maestro.invoke('listToolRequests', { taskId }).requests.filter((r) => r.status === 'pending');
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ display: { kind: 'protected_file', path: '.git/config' } });
    expect(fs.readFileSync(config, 'utf8')).toBe(FIRST);

    h.maestro.invoke('decideToolRequest', { taskId, requestId: pending[0]?.id as string, decision: 'deny' });
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'succeeded' });
    expect(fs.readFileSync(config, 'utf8')).toBe(FIRST);
  });
});

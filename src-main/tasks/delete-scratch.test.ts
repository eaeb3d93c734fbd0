// Deleting a task that worked in a scratch folder of its own (no folder chosen): the folder and its checkpoints'
// private repository go with the last task that works in it. A fork of the task works in the same folder, so deleting
// the original leaves the fork its files and checkpoints, and deleting the fork then removes both.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, complete, engineHarness, SETTLED } from '../../test-support/engine-harness';
import { until } from '../../test-support/headless-process';
import { plainRepoOf } from '../checkpoints/locate';
import { ephemeralWorkspace } from '../workspace/paths';

const refsOf = (repo: string) =>
  execFileSync('git', ['for-each-ref', '--format=%(refname)'], { env: { ...process.env, GIT_DIR: repo } })
    .toString()
    .split('\n')
    .filter(Boolean);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('deleting a task in a scratch folder', () => {
  it('P9.21 the original of a fork deleted: the fork keeps the folder and its files, and the original’s refs go; the fork deleted too: the folder and its checkpoint repository go; nothing logged', async () => {
    const h = await engineHarness(
      [call('write_file', { path: 'b.txt', content: 'bee\n' }, 'call_1'), complete('written')],
      { policyTools: true, checkpoints: true, defaultWorkspace: null },
    );
    const { taskId, jobId } = h.createTask('Write b.txt');
    expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
    const scratch = ephemeralWorkspace(h.dataDir, taskId);
    expect(h.maestro.invoke('getTask', { taskId }).task.workspacePath).toBe(scratch);
    expect(h.maestro.invoke('listCheckpoints', { taskId }).state).toMatchObject({ on: true, store: 'plain' });
    const repo = plainRepoOf(h.dataDir, fs.realpathSync(scratch));
    const own = (id: string) => refsOf(repo).filter((r) => r.includes(id));
    expect(own(taskId).length).toBeGreaterThan(0);
    const fork = h.maestro.invoke('forkTask', { taskId, send: 1 }).task;
    expect(fork.workspacePath).toBe(scratch);
    const errors = vi.spyOn(console, 'error');

    h.maestro.invoke('deleteTask', { taskId });
    await until("the original's refs gone", async () => (own(taskId).length === 0 ? true : undefined), 10_000);
    expect(fs.readFileSync(path.join(scratch, 'b.txt'), 'utf8')).toBe('bee\n');
    expect(fs.existsSync(repo)).toBe(true);

    h.maestro.invoke('deleteTask', { taskId: fork.id });
    expect(fs.existsSync(scratch)).toBe(false);
    expect(fs.existsSync(repo)).toBe(false);
    // What the deletes left running (the checkpoints' forget) finds nothing to complain about.
    await new Promise((r) => setTimeout(r, 200));
    expect(errors).not.toHaveBeenCalled();
  });
});

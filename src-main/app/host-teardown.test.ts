// The composition root's teardown (create-maestro.ts, through its DisposableStore): closing a host mid-job releases
// everything it holds — the model call, the job's MCP server process, the Worker, the DB, the data dir's lock — and
// loses nothing. The bridge's part (SIGTERM of the headless host) is headless-host.test.ts.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { arrival, engineHarness } from '../../test-support/engine-harness';
import { isAlive, startedPids, stdioServerEntry, waitForExit, writeMcpConfig } from '../../test-support/mcp-fixtures';
import { tempDir, testMaestro } from '../../test-support/temp-maestro';

describe('closing the host', () => {
  it('P2.39 mid-job: the LLM call is aborted, the job’s MCP server exits, the DB closes, the data dir is free and the job waits in retry for the next start, no attempt used; closing again does nothing', async () => {
    const workspace = tempDir('maestro-ws-');
    const pidFile = path.join(workspace, 'pids');
    writeMcpConfig(workspace, { local: stdioServerEntry(pidFile) });
    const hang = arrival({ fault: 'hang' });
    const h = await engineHarness([hang.entry], { workspace });
    const { jobId } = h.createTask('Wait for the model');
    await hang.arrived;
    const pids = startedPids(pidFile);
    expect(pids).toHaveLength(1);
    expect(pids.every(isAlive)).toBe(true);

    await h.maestro.close();
    await waitForExit(pids, 3000);
    expect(() => h.maestro.store.jobs.get(jobId)).toThrow(/not open|closed/i);
    await expect(h.maestro.close()).resolves.toBeUndefined();

    // The lock is released: a new host opens the same data dir and finds the job, not lost, not finished.
    const next = testMaestro({ dataDir: h.dataDir });
    expect(next.store.jobs.get(jobId)).toMatchObject({ status: 'retry', attempt: 0 });
    expect(h.server.requests).toHaveLength(1);
  });
});

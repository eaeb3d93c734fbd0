// Issue 21's attack "the new folder's settings": a folder brought to MAESTRO with its own `.maestro/policy.json`,
// `mcp.json` and a piece. Its first job must not run without them unsaid, nor with them unreviewed: it waits
// (waiting_human + settings) before any model request, the settings-changes routes decide each file, and the job then
// starts with what was accepted. Real SQLite, the scripted model over HTTP, a real stdio MCP server.
import fs from 'node:fs';
import path from 'node:path';
import { TaskState } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import type { JobStatus } from '../../src-shared/entities';
import { complete, engineHarness, type Harness, SETTLED } from '../../test-support/engine-harness';
import { startedPids, stdioServerEntry, writeMcpConfig } from '../../test-support/mcp-fixtures';
import { acceptWorkspaceSettings, tempDir, testMaestro } from '../../test-support/temp-maestro';
import { a2aState } from '../a2a/task-view';
import type { JobRecord } from '../db/repos/jobs';
import type { Engine } from '../engine/piece-result';
import { JobPreparation } from '../worker/prepare-job';
import { handlePieceResult } from './apply-result';
import { DEFAULT_RETRY_POLICY } from './retry-policy';

const POLICY = '.maestro/policy.json';
const MCP = '.maestro/mcp.json';
const PIECE = '.maestro/pieces/mine.yaml';
const DENY_WRITES = `${JSON.stringify({ tools: { deny: ['write_file'] } }, null, 2)}\n`;

/** A folder as a person brings it: its own settings files, none of them ever accepted in this data dir. */
function newFolder(): { workspace: string; pidFile: string } {
  const workspace = tempDir('maestro-ws-');
  const pidFile = path.join(tempDir('maestro-pids-'), 'pids');
  fs.mkdirSync(path.join(workspace, '.maestro', 'pieces'), { recursive: true });
  fs.writeFileSync(path.join(workspace, POLICY), DENY_WRITES);
  writeMcpConfig(workspace, { web: stdioServerEntry(pidFile) });
  fs.writeFileSync(
    path.join(workspace, PIECE),
    'id: mine\nname: Mine\nmovements:\n  - name: only\n    guidance: do the work\n',
  );
  return { workspace, pidFile };
}

const list = (h: Harness) => h.maestro.invoke('listSettingsChanges', { workspacePath: h.workspace }).changes;

function decide(h: Harness, file: string, decision: 'accept' | 'reject') {
  const change = list(h).find((c) => c.file === file);
  if (!change) throw new Error(`no card for ${file}`);
  return decision === 'accept'
    ? h.maestro.invoke('acceptSettingsChange', {
        workspacePath: h.workspace,
        file,
        currentSha256: change.currentSha256,
      })
    : h.maestro.invoke('rejectSettingsChange', { workspacePath: h.workspace, file });
}

const toolNames = (h: Harness, i: number) =>
  ((h.server.requests[i]?.body?.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);

/** Waits until the job is in the status, then a little more to see that it stays there. */
async function staysIn(h: Harness, jobId: string, status: JobStatus): Promise<JobRecord> {
  await h.waitFor(jobId, [status]);
  await new Promise((resolve) => setTimeout(resolve, 150));
  return h.maestro.store.jobs.get(jobId) as JobRecord;
}

describe("a new folder's settings files are shown before its first job (issue 21 point 8)", () => {
  it('P7.20 the first job waits on settings before any model request: no MCP server started, a comment names each file', async () => {
    const { workspace, pidFile } = newFolder();
    const h = await engineHarness([complete('should not run yet')], { workspace, acceptSettings: false });
    const { taskId, jobId } = h.createTask('Work in my folder');

    const parked = await staysIn(h, jobId, 'waiting_human');
    expect(parked).toMatchObject({ waitReason: 'settings', resumeMovement: null, pendingInvoke: 'UserSend' });
    expect(h.server.requests).toHaveLength(0);
    expect(startedPids(pidFile)).toEqual([]);
    const notice = h.maestro.store.comments.listForJob(jobId).find((c) => c.author === 'system');
    expect(notice?.body).toContain('wait to be reviewed');
    for (const file of [POLICY, MCP, PIECE]) expect(notice?.body).toContain(file);
    // The person is told: an attention item (OS notice, webhook), and an A2A caller sees input-required.
    expect(h.maestro.attention.list()).toMatchObject([{ taskId, reason: 'settings' }]);
    expect(a2aState(parked)).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    // The cards: each file, never accepted, over the routes that now work for this folder.
    expect(list(h).map((c) => [c.file, c.hasAccepted])).toEqual([
      [POLICY, false],
      [MCP, false],
      [PIECE, false],
    ]);
    // A comment meanwhile is kept for the job and does not start it (P1.13's rule for a wait before the engine).
    expect(h.maestro.invoke('addComment', { taskId, body: 'also read the README' }).disposition).toBe('interjection');
    expect((await staysIn(h, jobId, 'waiting_human')).waitReason).toBe('settings');
    expect(h.server.requests).toHaveLength(0);
  });

  it('accept the policy and the piece, reject mcp.json: the job starts with the accepted policy and without the server', async () => {
    const { workspace, pidFile } = newFolder();
    const h = await engineHarness([complete('done with my settings')], {
      workspace,
      acceptSettings: false,
      policyTools: true,
    });
    const { jobId } = h.createTask('Work in my folder');
    await staysIn(h, jobId, 'waiting_human');

    expect(decide(h, POLICY, 'accept').changes.map((c) => c.file)).toEqual([MCP, PIECE]);
    expect(decide(h, MCP, 'reject').changes.map((c) => c.file)).toEqual([PIECE]);
    // One file is still undecided: the job keeps waiting.
    expect((await staysIn(h, jobId, 'waiting_human')).waitReason).toBe('settings');
    expect(h.server.requests).toHaveLength(0);

    expect(decide(h, PIECE, 'accept').changes).toEqual([]);
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'succeeded', result: 'done with my settings' });
    expect(h.server.requests).toHaveLength(1);
    // The accepted policy applied (write_file denied: the model is not offered it); the rejected server did not.
    const tools = toolNames(h, 0);
    expect(tools).toContain('read_file');
    expect(tools).not.toContain('write_file');
    expect(tools.some((t) => t.startsWith('mcp__'))).toBe(false);
    expect(startedPids(pidFile)).toEqual([]);
    expect(fs.existsSync(path.join(workspace, MCP))).toBe(false);
    // The accepted piece is offered from now on.
    expect(h.maestro.invoke('listPieces', {}).pieces.map((p) => p.id)).toContain('mine');
    expect(h.maestro.attention.list()).toEqual([]);
  }, 20_000);

  it('P7.17 a restart while the job waits keeps it waiting; deciding after the restart starts it', async () => {
    const { workspace } = newFolder();
    const first = await engineHarness([], { workspace, acceptSettings: false });
    const { jobId } = first.createTask('Work in my folder');
    await staysIn(first, jobId, 'waiting_human');
    await first.maestro.close();

    first.server.push(complete('after the restart'));
    const second = await engineHarness([], {
      workspace,
      dataDir: first.dataDir,
      server: first.server,
      acceptSettings: false,
    });
    expect(await staysIn(second, jobId, 'waiting_human')).toMatchObject({ waitReason: 'settings' });
    expect(second.server.requests).toHaveLength(0);
    expect(second.maestro.attention.list()).toMatchObject([{ jobId, reason: 'settings' }]);
    for (const file of [POLICY, MCP, PIECE]) decide(second, file, file === MCP ? 'reject' : 'accept');
    expect(await second.waitFor(jobId, SETTLED)).toMatchObject({ status: 'succeeded', result: 'after the restart' });
  }, 20_000);

  it('P1.22 a person who never decides can cancel; a decision after that starts nothing', async () => {
    const { workspace } = newFolder();
    const h = await engineHarness([complete('never')], { workspace, acceptSettings: false });
    const { taskId, jobId } = h.createTask('Work in my folder');
    await staysIn(h, jobId, 'waiting_human');
    expect(h.maestro.invoke('cancelTask', { taskId }).job?.status).toBe('cancelled');
    for (const file of [POLICY, MCP, PIECE]) decide(h, file, 'accept');
    expect((await staysIn(h, jobId, 'cancelled')).status).toBe('cancelled');
    expect(h.server.requests).toHaveLength(0);
  });

  it('files removed by hand while the job waits: the next look at the cards starts it', async () => {
    const { workspace } = newFolder();
    const h = await engineHarness([complete('no settings after all')], { workspace, acceptSettings: false });
    const { jobId } = h.createTask('Work in my folder');
    await staysIn(h, jobId, 'waiting_human');
    fs.rmSync(path.join(workspace, '.maestro'), { recursive: true });
    expect(list(h)).toEqual([]);
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'succeeded' });
  });

  it('a decision made between the check and the park (by another host on the same store) is not missed', () => {
    const { workspace } = newFolder();
    const m = testMaestro({ defaultWorkspace: workspace });
    m.invoke('createTask', { instruction: 'Work in my folder' });
    const claimed = m.store.jobs.claimNext({ workerId: 'w1', profiles: null }) as JobRecord;
    // No engine is reached: preparation parks the job first.
    const preparation = new JobPreparation({
      store: m.store,
      engine: {} as Engine,
      pieces: m.ctx.pieces,
      dataDir: m.ctx.dataDir,
    });
    const prepared = preparation.prepare(claimed);
    if (prepared.kind !== 'wait') throw new Error(`expected a wait, got ${prepared.kind}`);
    // The other host decides every file while this job is still running: it finds nothing parked to resume.
    acceptWorkspaceSettings(m, workspace);
    expect(m.invoke('listSettingsChanges', { workspacePath: workspace }).changes).toEqual([]);
    const parked = handlePieceResult(m.store, claimed, prepared.result, {
      workerId: 'w1',
      retry: DEFAULT_RETRY_POLICY,
      engineRan: false,
    });
    expect(parked).toMatchObject({ status: 'waiting_human', waitReason: 'settings' });
    expect(preparation.resumeIfSettingsReviewed(parked)).toMatchObject({ status: 'queued', pendingInvoke: 'UserSend' });
  });

  it('a folder without settings files does not wait: the job runs at once', async () => {
    const h = await engineHarness([complete('straight away')], { acceptSettings: false });
    const { jobId } = h.createTask('Work');
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'succeeded', result: 'straight away' });
    const statuses = h.events.flatMap((e) => (e.type === 'job.changed' && e.jobId === jobId ? [e.job.status] : []));
    expect(statuses).not.toContain('waiting_human');
  });
});

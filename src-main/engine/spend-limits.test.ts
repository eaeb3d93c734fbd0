// The fork bomb (issue 21): a model that calls create_subtask in every job, and one that delegates at every level.
// The tree stops at its count and depth limits — the defaults, a piece's or the Workspace Tool Policy's — with exact
// numbers of tasks and model requests, and the refused call names the limit and where to change it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, complete, engineHarness } from '../../test-support/engine-harness';
import type { RecordedRequest, ScriptEntry } from '../../test-support/scripted-llm-server';
import { tempDir } from '../../test-support/temp-maestro';
import { parsePolicy } from '../tools/policy';
import { SUBTASK_DEFAULTS } from './spend-limits';

type Msg = { role: string; content: string | null };
const messages = (r: RecordedRequest | undefined) => (r?.body?.messages ?? []) as Msg[];
const toolNames = (r: RecordedRequest | undefined) =>
  ((r?.body?.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);

/** Every job asks for a subtask; once told the outcome (a tool result), it completes. Forever, if nothing stops it. */
const bomb =
  (pieceId?: string): ScriptEntry =>
  (request) =>
    messages(request).at(-1)?.role === 'tool'
      ? complete('my part is done')
      : call('create_subtask', { instruction: 'Split the work again', ...(pieceId ? { pieceId } : {}) });

function workspace(files: Record<string, string>): string {
  const ws = tempDir('maestro-ws-');
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    fs.writeFileSync(path.join(ws, name), text);
  }
  return ws;
}

async function forkBomb(ws: string, pieceId?: string) {
  const h = await engineHarness(
    Array.from({ length: 400 }, () => bomb(pieceId)),
    { policyTools: true, workspace: ws },
  );
  const { taskId, jobId } = h.createTask('Do everything', pieceId ? { pieceId } : {});
  const done = await h.waitFor(jobId, ['succeeded', 'failed', 'cancelled'], 60_000);
  const tasks = h.maestro.store.tasks.tree(taskId);
  const depths = tasks.map((id) => h.maestro.store.tasks.ancestry(id)?.depth);
  const refusals = h.server.requests.flatMap((r) => {
    const last = messages(r).at(-1);
    return last?.role === 'tool' && last.content?.startsWith('Error: limit reached') ? [last.content] : [];
  });
  return { h, done, tasks, depths, refusals };
}

/** With n subtasks allowed: the root and n subtasks; each run asks twice (the call, then complete), and every
 * subtask's end wakes its parent for one more run: (1 + n) + n runs. */
const expectedRequests = (n: number) => 2 * (1 + n + n);

describe('the fork bomb (issue 21, P4.43)', () => {
  it("P4.43 with the policy's limits (depth 2, 5 subtasks): 6 tasks, 22 model requests, refusals naming the limit and the file", async () => {
    const ws = workspace({
      '.maestro/policy.json': JSON.stringify({ limits: { subtasks: { max_depth: 2, max_count: 5 } } }),
    });
    const { h, done, tasks, depths, refusals } = await forkBomb(ws);
    expect(done.status).toBe('succeeded');
    expect(tasks).toHaveLength(6);
    expect(h.maestro.store.tasks.list()).toHaveLength(6);
    expect(Math.max(...(depths as number[]))).toBe(2);
    expect(h.server.requests).toHaveLength(expectedRequests(5));
    const file = path.join(ws, '.maestro', 'policy.json');
    const depth = refusals.filter((r) => r.includes('limits.subtasks.max_depth = 2'));
    const count = refusals.filter((r) => r.includes('limits.subtasks.max_count = 5'));
    expect(depth.length).toBeGreaterThan(0);
    expect(count.length).toBeGreaterThan(0);
    expect(depth[0]).toContain('a subtask of this task would be 3 levels below its top task');
    expect(count[0]).toContain("the tree under this task's top task already has 5 subtasks");
    expect(count[0]).toContain(`set by ${file}`);
    expect(count[0]).toContain('Nothing was created');
    expect(depth.length + count.length).toBe(refusals.length);
  }, 90_000);

  it('P4.43 with no policy and no piece limit: the defaults (20 subtasks, 3 deep) stop it at 21 tasks and 82 requests', async () => {
    const { h, done, tasks, depths, refusals } = await forkBomb(workspace({}));
    expect(done.status).toBe('succeeded');
    expect(tasks).toHaveLength(1 + SUBTASK_DEFAULTS.maxCount);
    expect(Math.max(...(depths as number[]))).toBeLessThanOrEqual(SUBTASK_DEFAULTS.maxDepth);
    expect(h.server.requests).toHaveLength(expectedRequests(SUBTASK_DEFAULTS.maxCount));
    expect(refusals.some((r) => r.includes('subtasks.max_count = 20, the default'))).toBe(true);
  }, 120_000);

  it("P4.43 a piece's own limit (subtasks.max_count: 2) applies to its jobs and is named with the piece's file", async () => {
    const piece = `id: bomb\nname: Bomb\nsubtasks: { max_count: 2 }\nmovements:\n  - name: work\n    guidance: Split the work.\n`;
    const ws = workspace({ '.maestro/pieces/bomb.yaml': piece });
    const { h, done, tasks, refusals } = await forkBomb(ws, 'bomb');
    expect(done.status).toBe('succeeded');
    expect(tasks).toHaveLength(3);
    expect(h.server.requests).toHaveLength(expectedRequests(2));
    expect(refusals[0]).toMatch(/subtasks\.max_count = 2, set by piece "bomb" \(.*bomb\.yaml\)/);
  }, 90_000);

  it('a bad limit in policy.json is an error naming the file and the field; nothing is read from it', () => {
    const file = '/ws/.maestro/policy.json';
    expect(() => parsePolicy(JSON.stringify({ limits: { subtasks: { max_count: -1 } } }), file)).toThrow(
      /\/ws\/\.maestro\/policy\.json: limits\.subtasks\.max_count: /,
    );
    expect(() => parsePolicy(JSON.stringify({ limits: { subtask: {} } }), file)).toThrow(/limits: .*subtask/);
    expect(parsePolicy(JSON.stringify({ limits: { delegate: { max_depth: 0 } } }), file).limits).toEqual({
      delegate: { max_depth: 0 },
    });
  });
});

describe('delegate depth (issue 21, P4.06, P4.07)', () => {
  const lead = (maxDepth: number) =>
    `id: lead\nname: Lead\ndelegate: { allowed: true, max_depth: ${maxDepth} }\nmovements:\n  - name: lead\n    guidance: Delegate what you can.\n`;
  /** Every level delegates while it has the tool, then reports. */
  const delegating: ScriptEntry = (request) =>
    toolNames(request).includes('delegate') && messages(request).at(-1)?.role !== 'tool'
      ? call('delegate', { instruction: 'Go one level deeper' })
      : complete('reported');

  it('P4.06 P4.07 max_depth 2: each sub-agent counts from its own level — 2 levels, 5 requests, none with delegate at the bottom', async () => {
    const ws = workspace({ '.maestro/pieces/lead.yaml': lead(2) });
    const h = await engineHarness(
      Array.from({ length: 20 }, () => delegating),
      { workspace: ws },
    );
    const { jobId } = h.createTask('Go deep', { pieceId: 'lead' });
    expect(await h.waitFor(jobId, ['succeeded', 'failed'], 20_000)).toMatchObject({ status: 'succeeded' });
    expect(h.server.requests).toHaveLength(5);
    expect(h.server.requests.map((r) => toolNames(r).includes('delegate'))).toEqual([true, true, false, true, true]);
  });

  it("P4.07 the policy's limits.delegate.max_depth lowers the piece's: at 1 the sub-agent gets no delegate", async () => {
    const ws = workspace({
      '.maestro/pieces/lead.yaml': lead(3),
      '.maestro/policy.json': JSON.stringify({ limits: { delegate: { max_depth: 1 } } }),
    });
    const h = await engineHarness(
      Array.from({ length: 20 }, () => delegating),
      { workspace: ws, policyTools: true },
    );
    const { jobId } = h.createTask('Go deep', { pieceId: 'lead' });
    expect(await h.waitFor(jobId, ['succeeded', 'failed'], 20_000)).toMatchObject({ status: 'succeeded' });
    expect(h.server.requests.map((r) => toolNames(r).includes('delegate'))).toEqual([true, false, true]);
  });

  it('P4.07 the policy at 0 takes delegate away from a piece that allows it', async () => {
    const ws = workspace({
      '.maestro/pieces/lead.yaml': lead(3),
      '.maestro/policy.json': JSON.stringify({ limits: { delegate: { max_depth: 0 } } }),
    });
    const h = await engineHarness([complete('alone')], { workspace: ws, policyTools: true });
    const { jobId } = h.createTask('Go deep', { pieceId: 'lead' });
    expect(await h.waitFor(jobId, ['succeeded', 'failed'], 20_000)).toMatchObject({ status: 'succeeded' });
    expect(toolNames(h.server.requests[0])).not.toContain('delegate');
  });
});

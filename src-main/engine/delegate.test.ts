import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, complete, engineHarness, SETTLED } from '../../test-support/engine-harness';
import type { RecordedRequest } from '../../test-support/scripted-llm-server';
import { tempDir } from '../../test-support/temp-maestro';

type Msg = { role: string; content: string | null };
const messages = (r: RecordedRequest | undefined) => (r?.body?.messages ?? []) as Msg[];
const toolNames = (r: RecordedRequest | undefined) =>
  ((r?.body?.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);

function workspaceWithDelegatingPiece(maxDepth: number): string {
  const ws = tempDir('maestro-ws-');
  fs.mkdirSync(path.join(ws, '.maestro', 'pieces'), { recursive: true });
  fs.writeFileSync(
    path.join(ws, '.maestro', 'pieces', 'lead.yaml'),
    `id: lead\nname: Lead\ndelegate: { allowed: true, max_depth: ${maxDepth} }\nmovements:\n  - name: lead\n    guidance: Delegate what you can.\n`,
  );
  return ws;
}

describe('delegate', () => {
  it('P4.06 P4.38 a delegate call runs a sub-agent in an isolated conversation; its report is the tool result', async () => {
    const h = await engineHarness(
      [
        call('delegate', { instruction: 'Count the files' }),
        complete('There are 3 files.'),
        complete('Done: 3 files.'),
      ],
      { workspace: workspaceWithDelegatingPiece(1) },
    );
    const { jobId } = h.createTask('How many files?', { pieceId: 'lead' });
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'succeeded', result: 'Done: 3 files.' });
    expect(toolNames(h.server.requests[0])).toEqual([
      'create_subtask',
      'wait_for_subtasks',
      'browser_handoff',
      'delegate',
      'complete',
    ]);
    // The sub-agent's own request: its instruction, no delegate at max depth 1, and none of the parent's messages.
    const child = messages(h.server.requests[1]);
    expect(child.map((m) => m.role)).toEqual(['system', 'user']);
    expect(child[1]?.content).toBe('# Instruction\nCount the files');
    expect(toolNames(h.server.requests[1])).toEqual([
      'create_subtask',
      'wait_for_subtasks',
      'browser_handoff',
      'complete',
    ]);
    const parent = messages(h.server.requests[2]);
    expect(parent.at(-1)).toMatchObject({ role: 'tool', content: 'There are 3 files.' });
    expect(parent.some((m) => m.content?.includes('# Instruction'))).toBe(false);
  });

  it('P4.07 a piece that does not allow delegation has no delegate tool; a call gets an Error', async () => {
    const h = await engineHarness([call('delegate', { instruction: 'x' }), complete()]);
    const { jobId } = h.createTask('x');
    await h.waitFor(jobId, SETTLED);
    expect(toolNames(h.server.requests[0])).not.toContain('delegate');
    expect(messages(h.server.requests[1]).at(-1)?.content).toMatch(/^Error: unknown tool delegate/);
  });
});

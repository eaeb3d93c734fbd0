// Reviewing edits through the whole engine, with the real tools on a temp workspace and a scripted model: a long
// rewrite's ToolTurn keeps the whole diff for the chat (display) while the model reads the capped one; under a Workspace
// Tool Policy that asks before edits, an edit parks with the diff it would apply, nothing written until a person
// approves it, and a denied one is never written.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, complete, engineHarness, SETTLED } from '../../test-support/engine-harness';
import { transcriptOf } from '../../test-support/transcript-lines';

const numbered = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word} ${i}\n`).join('');

/** The tool message answering `id` in the request the model got. */
function toolMessage(body: { messages?: unknown[] } | null | undefined, id: string): string {
  const found = (body?.messages ?? []).find(
    (m) =>
      (m as { role: string; tool_call_id?: string }).role === 'tool' &&
      (m as { tool_call_id: string }).tool_call_id === id,
  ) as { content: string } | undefined;
  if (!found) throw new Error(`no tool message for ${id}`);
  return found.content;
}

describe('reviewing edits', () => {
  it('a 300-line rewrite: the step carries the whole diff (display); the model and the transcript get the capped one', async () => {
    const h = await engineHarness(
      [call('write_file', { path: 'big.txt', content: numbered(300, 'new') }, 'w1'), complete('Rewritten.')],
      { policyTools: true },
    );
    fs.writeFileSync(path.join(h.workspace, 'big.txt'), numbered(300, 'old'));
    const { taskId, jobId } = h.createTask('Rewrite big.txt');
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'succeeded' });

    const { steps } = h.maestro.invoke('getTaskRecent', { taskId });
    const result = steps.flatMap((s) => s.toolCalls).find((c) => c.id === 'w1')?.result;
    expect(result?.ok).toBe(true);
    expect(result?.content).toMatch(/more diff lines not shown\)$/);
    const display = result?.display ?? '';
    expect(display.split('\n').filter((l) => l.startsWith('+new '))).toHaveLength(300);
    expect(display.split('\n').filter((l) => l.startsWith('-old '))).toHaveLength(300);
    expect(display).not.toContain('not shown');

    const seen = toolMessage(h.server.requests[1]?.body, 'w1');
    expect(seen).toBe(result?.content);
    const transcript = transcriptOf(h.maestro, taskId).read();
    expect(transcript).toContain('more diff lines not shown');
    expect(transcript).not.toContain('+new 299');
    // The live answer carries the same display as the page.
    const answered = h.events.flatMap((e) => (e.type === 'step.answered' && e.callId === 'w1' ? [e.result] : []));
    expect(answered).toEqual([result]);
  });

  it('with tools.ask [edit_file, write_file] an edit parks with its diff, the file unchanged; approved, it is written', async () => {
    const h = await engineHarness(
      [
        call('edit_file', { path: 'app.ts', old_string: 'const b = 2;', new_string: 'const b = 3;' }, 'e1'),
        complete('Edited.'),
      ],
      { policyTools: true },
    );
    h.maestro.invoke('saveToolPolicy', {
      workspacePath: h.workspace,
      policy: { tools: { ask: ['edit_file', 'write_file'] } },
    });
    const file = path.join(h.workspace, 'app.ts');
    fs.writeFileSync(file, 'const a = 1;\nconst b = 2;\n');
    const { taskId, jobId } = h.createTask('Change b');
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'waiting_human', waitReason: 'tool_request' });
    const [request] = h.maestro.invoke('listToolRequests', { taskId }).requests;
    expect(request?.tool).toBe('edit_file');
    expect(request?.summary.split('\n')).toEqual([
      'Edit app.ts: replace 1 occurrence',
      '--- a/app.ts',
      '+++ b/app.ts',
      '@@ -1,2 +1,2 @@',
      ' const a = 1;',
      '-const b = 2;',
      '+const b = 3;',
    ]);
    expect(fs.readFileSync(file, 'utf8')).toBe('const a = 1;\nconst b = 2;\n');

    h.maestro.invoke('decideToolRequest', { taskId, requestId: request?.id as string, decision: 'approve' });
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'succeeded' });
    expect(fs.readFileSync(file, 'utf8')).toBe('const a = 1;\nconst b = 3;\n');
    expect(toolMessage(h.server.requests[1]?.body, 'e1')).toMatch(/^Edited app\.ts: replaced 1 occurrence\n/);
  });

  it('P7.05 a denied write is never written, and the model hears why in an Error', async () => {
    const h = await engineHarness(
      [call('write_file', { path: 'notes.md', content: '# Notes\n' }, 'w1'), complete('Not written.')],
      { policyTools: true },
    );
    h.maestro.invoke('saveToolPolicy', { workspacePath: h.workspace, policy: { tools: { ask: ['write_file'] } } });
    const { taskId, jobId } = h.createTask('Write notes');
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'waiting_human' });
    const [request] = h.maestro.invoke('listToolRequests', { taskId }).requests;
    expect(request?.summary).toBe('Create notes.md (8 bytes)\n--- /dev/null\n+++ b/notes.md\n@@ -0,0 +1 @@\n+# Notes');
    h.maestro.invoke('decideToolRequest', {
      taskId,
      requestId: request?.id as string,
      decision: 'deny',
      reason: 'not now',
    });
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'succeeded' });
    expect(fs.existsSync(path.join(h.workspace, 'notes.md'))).toBe(false);
    expect(toolMessage(h.server.requests[1]?.body, 'w1')).toMatch(/^Error.*not now/s);
  });
});

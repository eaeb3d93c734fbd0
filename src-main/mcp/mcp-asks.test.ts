// MCP servers that ask the client back while a tool call runs (issue 27, point 2), in real jobs: Worker + engine +
// SQLite + the scripted model server through the openai SDK, and a real stdio server built with the SDK's McpServer
// (test-support/mcp-asking-server.ts). Elicitation becomes a card the person answers (accept with content, decline) and
// the answer reaches the server; a nested form or one asking for a password is refused with the reason, which the
// server receives; sampling asks the person by default, then goes to the task's profile's model, and the policy can
// allow or deny it; roots are the workspace folder.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { McpPrompt } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import { call, complete, engineHarness, type Harness } from '../../test-support/engine-harness';
import { askingServerEntry, writeMcpConfig } from '../../test-support/mcp-fixtures';
import { startScriptedLlmServer } from '../../test-support/scripted-llm-server';
import { tempDir } from '../../test-support/temp-maestro';

type Message = { role: string; content?: unknown };
const toolResults = (h: Harness, i: number) =>
  ((h.server.requests[i]?.body?.messages ?? []) as Message[]).filter((m) => m.role === 'tool').map((m) => m.content);

/** The first question the task's servers ask, once it is shown. */
async function promptOf(h: Harness, taskId: string, timeoutMs = 15_000): Promise<McpPrompt> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const [prompt] = h.maestro.invoke('listMcpPrompts', { taskId }).prompts;
    if (prompt) return prompt;
    if (Date.now() > until) throw new Error(`no MCP question in task ${taskId} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function askingHarness(
  script: Parameters<typeof engineHarness>[0],
  policy?: object,
  entry: Record<string, unknown> = {},
) {
  const workspace = tempDir('maestro-ws-');
  writeMcpConfig(workspace, { ask: askingServerEntry(entry) });
  if (policy) fs.writeFileSync(path.join(workspace, '.maestro', 'policy.json'), JSON.stringify(policy));
  const server = await startScriptedLlmServer({ script });
  const h = await engineHarness([], { workspace, server });
  // A title of its own: no title request takes the sampling's one-shot reply.
  const created = h.createTask('Use the asking server', { title: 'Asking' });
  return { h, ...created, close: () => server.close() };
}

describe('MCP servers that ask while their call runs', () => {
  it('P7.20 an elicitation is the person’s card in the task; a bad answer is refused naming the field, the accepted one reaches the server', async () => {
    const { h, taskId, jobId, close } = await askingHarness([call('mcp__ask__book_table', {}), complete('Booked.')]);
    try {
      const prompt = await promptOf(h, taskId);
      expect(prompt).toMatchObject({
        kind: 'elicit',
        server: 'ask',
        jobId,
        message: 'Please give the booking details.',
      });
      if (prompt.kind !== 'elicit') throw new Error('not a form');
      expect(prompt.fields.map((f) => [f.name, f.kind, f.required])).toEqual([
        ['name', 'string', true],
        ['guests', 'integer', true],
        ['seating', 'choice', false],
        ['confirm', 'boolean', false],
      ]);
      expect(prompt.fields[2]?.options.map((o) => o.value)).toEqual(['indoor', 'outdoor']);
      // The job waits in place: still running, its call in flight, the card open.
      expect(h.maestro.store.jobs.get(jobId)?.status).toBe('running');
      // P7.20 and the task waits for the person all the same: the tray and notifications count it as a question.
      expect(h.maestro.attention.list()).toEqual([
        expect.objectContaining({
          taskId,
          reason: 'ask',
          detail: 'MCP server "ask" asks: Please give the booking details.',
        }),
      ]);
      expect(
        h.events.some((e) => e.type === 'mcp_prompt.changed' && e.open && e.prompt.id === prompt.id && e.seq === 0),
      ).toBe(true);

      // Out of bounds and not a choice: refused, naming each field; the question stays open.
      const bad = () =>
        h.maestro.invoke('answerMcpPrompt', {
          taskId,
          promptId: prompt.id,
          action: 'accept',
          content: { name: 'Ada', guests: 40, seating: 'roof' },
        });
      expect(bad).toThrow(MaestroError);
      expect(bad).toThrow(/guests must be at most 12; seating must be one of indoor, outdoor/);
      expect(h.maestro.invoke('listMcpPrompts', { taskId }).prompts).toHaveLength(1);
      // Another task cannot answer it.
      const other = h.createTask('Other', { title: 'Other' });
      expect(() =>
        h.maestro.invoke('answerMcpPrompt', { taskId: other.taskId, promptId: prompt.id, action: 'decline' }),
      ).toThrow(/is not waiting in task/);

      h.maestro.invoke('answerMcpPrompt', {
        taskId,
        promptId: prompt.id,
        action: 'accept',
        content: { name: 'Ada', guests: 4, seating: 'outdoor' },
      });
      expect(await h.waitFor(jobId, ['succeeded', 'failed'], 20_000)).toMatchObject({ status: 'succeeded' });
      expect(toolResults(h, 1)).toEqual(['accept: {"name":"Ada","guests":4,"seating":"outdoor"}']);
      expect(h.maestro.invoke('listMcpPrompts', { taskId }).prompts).toEqual([]);
      expect(h.events.some((e) => e.type === 'mcp_prompt.changed' && !e.open && e.prompt.id === prompt.id)).toBe(true);
      expect(h.maestro.attention.list().filter((i) => i.taskId === taskId)).toEqual([]);
      // An answered question is gone: a second answer finds nothing.
      expect(() => h.maestro.invoke('answerMcpPrompt', { taskId, promptId: prompt.id, action: 'decline' })).toThrow(
        /is not waiting/,
      );
    } finally {
      await close();
    }
  }, 40_000);

  it('the call’s timeout stands still while the person answers: an answer after the tool timeout still reaches the server', async () => {
    const { h, taskId, jobId, close } = await askingHarness(
      [call('mcp__ask__book_table', {}), complete('Booked late.')],
      undefined,
      { toolTimeoutMs: 1000 },
    );
    try {
      const prompt = await promptOf(h, taskId);
      // Well past the call's 1 s without news: it would have failed with "Request timed out".
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(h.maestro.store.jobs.get(jobId)?.status).toBe('running');
      h.maestro.invoke('answerMcpPrompt', {
        taskId,
        promptId: prompt.id,
        action: 'accept',
        content: { name: 'Late', guests: 2 },
      });
      expect(await h.waitFor(jobId, ['succeeded', 'failed'], 20_000)).toMatchObject({ status: 'succeeded' });
      expect(toolResults(h, 1)).toEqual(['accept: {"name":"Late","guests":2}']);
    } finally {
      await close();
    }
  }, 40_000);

  it('cancelling the task while its question is open closes the card and ends the job', async () => {
    const { h, taskId, jobId, close } = await askingHarness([call('mcp__ask__book_table', {}), complete('Never.')]);
    try {
      const prompt = await promptOf(h, taskId);
      h.maestro.invoke('cancelTask', { taskId });
      expect(await h.waitFor(jobId, ['cancelled', 'failed', 'succeeded'], 20_000)).toMatchObject({
        status: 'cancelled',
      });
      await expect.poll(() => h.maestro.invoke('listMcpPrompts', { taskId }).prompts, { timeout: 5000 }).toEqual([]);
      expect(() => h.maestro.invoke('answerMcpPrompt', { taskId, promptId: prompt.id, action: 'decline' })).toThrow(
        /is not waiting/,
      );
      expect(h.maestro.attention.list().filter((i) => i.detail.includes('MCP server'))).toEqual([]);
    } finally {
      await close();
    }
  }, 40_000);

  it('after a park, the kept server’s question reaches the resumed job, not the one that parked', async () => {
    const { h, taskId, jobId, close } = await askingHarness([
      complete('Which name?', 'needs_user_input'),
      call('mcp__ask__book_table', {}),
      complete('Booked after the answer.'),
    ]);
    try {
      expect(await h.waitFor(jobId, ['waiting_human', 'failed'], 20_000)).toMatchObject({ waitReason: 'ask' });
      await h.maestro.worker?.idle();
      expect(h.maestro.ctx.mcp.keptCount).toBe(1);
      h.maestro.invoke('addComment', { taskId, body: 'Ada' });
      const prompt = await promptOf(h, taskId);
      const resumed = h.maestro.store.jobs.listForTask(taskId).at(-1);
      expect(resumed?.id).not.toBe(jobId);
      expect(prompt.jobId).toBe(resumed?.id);
      h.maestro.invoke('answerMcpPrompt', {
        taskId,
        promptId: prompt.id,
        action: 'accept',
        content: { name: 'Ada', guests: 1 },
      });
      expect(await h.waitFor(resumed?.id as string, ['succeeded', 'failed'], 20_000)).toMatchObject({
        status: 'succeeded',
      });
    } finally {
      await close();
    }
  }, 40_000);

  it('a decline goes back to the server as a decline', async () => {
    const { h, taskId, jobId, close } = await askingHarness([call('mcp__ask__book_table', {}), complete('No table.')]);
    try {
      const prompt = await promptOf(h, taskId);
      h.maestro.invoke('answerMcpPrompt', { taskId, promptId: prompt.id, action: 'decline' });
      expect(await h.waitFor(jobId, ['succeeded', 'failed'], 20_000)).toMatchObject({ status: 'succeeded' });
      expect(toolResults(h, 1)).toEqual(['decline: null']);
    } finally {
      await close();
    }
  }, 40_000);

  it('a nested form and a form asking for a password are refused with the reason the server receives; no card, a note in the task', async () => {
    const { h, taskId, jobId, close } = await askingHarness([
      call('mcp__ask__ask_nested', {}),
      call('mcp__ask__ask_password', {}),
      complete('Refused twice.'),
    ]);
    try {
      expect(await h.waitFor(jobId, ['succeeded', 'failed'], 20_000)).toMatchObject({ status: 'succeeded' });
      expect(toolResults(h, 1)).toEqual([
        expect.stringMatching(
          /^Error: failed: MCP error -32602: MAESTRO refused this request: field "address" is of type "object", not a string, number, boolean or choice \(a form is flat\)$/,
        ),
      ]);
      expect(toolResults(h, 2)?.at(-1)).toMatch(
        /^Error: failed: MCP error -32602: MAESTRO refused this request: field "password" looks like a secret \(its name or title says "password"\)/,
      );
      expect(h.events.some((e) => e.type === 'mcp_prompt.changed')).toBe(false);
      const notes = h.maestro.store.comments.listForTask(taskId).filter((c) => c.notice?.code === 'mcp_warning');
      expect(notes.map((c) => c.body)).toEqual([
        expect.stringContaining('MCP server "ask" asked the person to fill in a form; it was refused: field "address"'),
        expect.stringContaining('field "password" looks like a secret'),
      ]);
    } finally {
      await close();
    }
  }, 40_000);

  it('sampling asks the person by default, then the task’s model answers the server', async () => {
    const { h, taskId, jobId, close } = await askingHarness([
      call('mcp__ask__summarize', { text: 'MCP lets servers ask the client back.' }),
      complete('Summarized.'),
    ]);
    h.server.pushOneShot({ text: 'Servers can ask clients.' });
    try {
      const prompt = await promptOf(h, taskId);
      expect(prompt).toMatchObject({ kind: 'sample', server: 'ask', profile: 'env', maxTokens: 60 });
      if (prompt.kind !== 'sample') throw new Error('not sampling');
      expect(prompt.summary).toBe(
        'system: You summarize texts in one sentence.\n\nuser: Summarize: MCP lets servers ask the client back.',
      );
      // No request reached the model before the person said yes.
      expect(h.server.oneShotRequests).toHaveLength(0);
      expect(() => h.maestro.invoke('answerMcpPrompt', { taskId, promptId: prompt.id, action: 'cancel' })).toThrow(
        /accepted or declined/,
      );
      h.maestro.invoke('answerMcpPrompt', { taskId, promptId: prompt.id, action: 'accept' });
      expect(await h.waitFor(jobId, ['succeeded', 'failed'], 20_000)).toMatchObject({ status: 'succeeded' });
      expect(toolResults(h, 1)).toEqual([expect.stringMatching(/^summary from .+: Servers can ask clients\.$/)]);
      const sent = h.server.oneShotRequests[0]?.body;
      expect(sent).toMatchObject({ max_tokens: 60, stream: false });
      expect(sent?.messages).toEqual([
        { role: 'system', content: 'You summarize texts in one sentence.' },
        { role: 'user', content: 'Summarize: MCP lets servers ask the client back.' },
      ]);
    } finally {
      await close();
    }
  }, 40_000);

  it('a declined sampling request is an error the server receives; the model is not asked', async () => {
    const { h, taskId, jobId, close } = await askingHarness([
      call('mcp__ask__summarize', { text: 'anything' }),
      complete('Not summarized.'),
    ]);
    try {
      const prompt = await promptOf(h, taskId);
      h.maestro.invoke('answerMcpPrompt', { taskId, promptId: prompt.id, action: 'decline' });
      expect(await h.waitFor(jobId, ['succeeded', 'failed'], 20_000)).toMatchObject({ status: 'succeeded' });
      expect(toolResults(h, 1)).toEqual(['Error: failed: MCP error -1: the person declined the sampling request']);
      expect(h.server.oneShotRequests).toHaveLength(0);
    } finally {
      await close();
    }
  }, 40_000);

  it('a malformed sampling request is refused with the reason; no card, the model is not asked', async () => {
    const { h, taskId, jobId, close } = await askingHarness([call('mcp__ask__sample_bad', {}), complete('Refused.')]);
    try {
      expect(await h.waitFor(jobId, ['succeeded', 'failed'], 20_000)).toMatchObject({ status: 'succeeded' });
      expect(toolResults(h, 1)?.[0]).toMatch(
        /^Error: failed: MCP error -32602: MAESTRO refused this request: not a sampling request \(messages\.0\.role: /,
      );
      expect(h.events.some((e) => e.type === 'mcp_prompt.changed')).toBe(false);
      expect(h.server.oneShotRequests).toHaveLength(0);
      expect(h.maestro.invoke('listMcpPrompts', { taskId }).prompts).toEqual([]);
    } finally {
      await close();
    }
  }, 40_000);

  it('the policy decides sampling like any call: allowed, it runs without a card; denied, the server gets an error', async () => {
    const allowed = await askingHarness([call('mcp__ask__summarize', { text: 'allowed' }), complete('Done.')], {
      tools: { allow: ['mcp_sampling__ask'] },
    });
    allowed.h.server.pushOneShot({ text: 'Allowed summary.' });
    try {
      expect(await allowed.h.waitFor(allowed.jobId, ['succeeded', 'failed'], 20_000)).toMatchObject({
        status: 'succeeded',
      });
      expect(toolResults(allowed.h, 1)).toEqual([expect.stringMatching(/: Allowed summary\.$/)]);
      expect(allowed.h.events.some((e) => e.type === 'mcp_prompt.changed')).toBe(false);
    } finally {
      await allowed.close();
    }
    const denied = await askingHarness([call('mcp__ask__summarize', { text: 'denied' }), complete('Done.')], {
      tools: { deny: ['mcp_sampling__*'] },
    });
    try {
      expect(await denied.h.waitFor(denied.jobId, ['succeeded', 'failed'], 20_000)).toMatchObject({
        status: 'succeeded',
      });
      expect(toolResults(denied.h, 1)).toEqual([
        'Error: failed: MCP error -1: the workspace policy denies mcp_sampling__ask',
      ]);
      expect(denied.h.server.oneShotRequests).toHaveLength(0);
    } finally {
      await denied.close();
    }
  }, 60_000);

  it('the roots are the workspace folder alone, as a file:// URI, and do not change', async () => {
    const { h, jobId, close } = await askingHarness([call('mcp__ask__roots', {}), complete('Rooted.')]);
    try {
      expect(await h.waitFor(jobId, ['succeeded', 'failed'], 20_000)).toMatchObject({ status: 'succeeded' });
      const listed = JSON.parse(String(toolResults(h, 1)?.[0]));
      const workspace = fs.realpathSync(h.workspace);
      expect(listed).toEqual({
        roots: [{ uri: pathToFileURL(workspace).href, name: path.basename(workspace) }],
        listChanged: false,
      });
    } finally {
      await close();
    }
  }, 40_000);
});

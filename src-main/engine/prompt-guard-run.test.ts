import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { call, complete, engineHarness, SETTLED } from '../../test-support/engine-harness';
import {
  type RecordedRequest,
  type ScriptedLlmServer,
  type ScriptedStep,
  startScriptedLlmServer,
} from '../../test-support/scripted-llm-server';
import { transcriptOf } from '../../test-support/transcript-lines';
import { LlmClient } from '../llm/client';
import { estimatePromptTokens } from '../llm/tokens';
import type { ChatMessage, ToolSpec } from '../llm/types';
import type { AnyToolDef } from '../tools/types';
import { parseTranscript, splitThreads } from './conversation';
import { type GuardReport, type PromptGuard, profilePromptGuard } from './prompt-guard';
import { compactNote } from './prompt-guard/compact';
import { DEDUP_MARKER } from './prompt-guard/dedup';
import { SUMMARIZER_SYSTEM } from './prompt-guard/llm-summarizer';
import { SUMMARY_HEADING } from './prompt-guard/summarize';

const WINDOW = 6000;
const RESERVE = 1024;
const CHUNK = 3000;

const servers: ScriptedLlmServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

const chunk = (p: string) => `${p}:`.padEnd(CHUNK, ` line of ${p} `).slice(0, CHUNK);
const readChunk: AnyToolDef = {
  name: 'read_chunk',
  description: 'Reads a chunk of a file.',
  parameters: z.object({ path: z.string() }),
  readOnly: true,
  execute: async (args: { path: string }) => ({ kind: 'result', ok: true, content: chunk(args.path) }),
};
const messagesOf = (r: RecordedRequest) => (r.body?.messages ?? []) as ChatMessage[];
const isSummary = (r: RecordedRequest) => (messagesOf(r)[0]?.content as string) === SUMMARIZER_SYSTEM;

/** A server whose agent replies come from `steps` in order; summarizer requests get a summary whenever they come. */
async function serverFor(steps: ScriptedStep[]): Promise<ScriptedLlmServer> {
  let next = 0;
  const entry = (r: RecordedRequest): ScriptedStep =>
    isSummary(r)
      ? { text: `SUMMARY #${r.index}: read chunks so far; nothing written.` }
      : (steps[next++] as ScriptedStep);
  const server = await startScriptedLlmServer({ script: Array.from({ length: steps.length * 2 }, () => entry) });
  servers.push(server);
  return server;
}

/** The guard the engine builds for a profile with this window, its summarizer on the same server; reports kept. */
function recordingGuard(server: ScriptedLlmServer, reports: GuardReport[], contextWindow = WINDOW): PromptGuard {
  const profile = { name: 'p', baseURL: server.baseURL, model: 'scripted', apiKey: 'sk-test', contextWindow };
  const inner = profilePromptGuard(profile, () => new LlmClient({ profile, log: () => {} }), RESERVE);
  return {
    async check(messages, tools) {
      const verdict = await inner.check(messages, tools);
      if (verdict.kind !== 'unchanged' && verdict.report) reports.push(verdict.report);
      return verdict;
    },
  };
}

describe('prompt guard in a running job', () => {
  it('P4.14 P4.15 P4.16 P4.17 P5.13 P6.27 P9.22 a long job stays under a small context window; system, tools and log untouched', async () => {
    // 24 reads of 3000 characters (~750 tokens each, ~18k in all) through a 6000-token window; every path twice in
    // a row (the second from the tool cache, a duplicate for dedup), then complete.
    const reads = Array.from({ length: 24 }, (_, i) => call('read_chunk', { path: `f${Math.floor(i / 2)}` }));
    const server = await serverFor([complete('first'), ...reads, complete('all read')]);
    const reports: GuardReport[] = [];
    const h = await engineHarness([], {
      server,
      tools: [readChunk],
      options: { promptGuard: recordingGuard(server, reports) },
    });
    const { taskId, jobId } = h.createTask('Read every chunk');
    await h.waitFor(jobId, SETTLED);
    await new Promise((r) => setTimeout(r, 5));
    const followup = h.maestro.invoke('addComment', { taskId, body: 'Now read all the chunks' });
    const job = await h.waitFor(followup.job?.id as string, SETTLED, 30_000);
    expect(job.status).toBe('succeeded');

    const agent = server.requests.filter((r) => !isSummary(r)).slice(1); // the follow-up job's requests
    const summaries = server.requests.filter(isSummary);
    expect(agent).toHaveLength(25);
    const tools = agent[0]?.body?.tools as ToolSpec[];
    const sizes = agent.map((r) => estimatePromptTokens(messagesOf(r), tools));
    // P4.14: every request fits the window with the answer reserve, as the LLM client's check demands.
    for (const s of sizes) expect(s + RESERVE).toBeLessThanOrEqual(WINDOW);
    // P5.13: system message and tools byte-identical in every request; roles valid.
    for (const r of agent) {
      expect(JSON.stringify(r.body?.tools)).toBe(JSON.stringify(tools));
      expect(JSON.stringify(messagesOf(r)[0])).toBe(JSON.stringify(messagesOf(agent[0] as RecordedRequest)[0]));
      const roles = messagesOf(r).map((m) => m.role);
      expect(roles.filter((x) => x === 'system')).toHaveLength(1);
      expect(roles.join(',')).not.toMatch(/user,user/);
    }
    // Every step ran at some point; summaries went through the LLM.
    const steps = new Set(reports.flatMap((rep) => rep.steps.map((s) => s.step)));
    expect([...steps].sort()).toEqual(['compact', 'dedup', 'summarize']);
    expect(summaries.length).toBeGreaterThan(0);
    for (const s of summaries) expect(s.body?.tools).toBeUndefined();
    const all = agent.map((r) => JSON.stringify(messagesOf(r))).join('\n');
    expect(all).toContain(JSON.stringify(DEDUP_MARKER));
    expect(all).toContain('omitted by the prompt guard');
    const last = messagesOf(agent.at(-1) as RecordedRequest);
    expect(last[1]?.content).toContain(SUMMARY_HEADING);
    expect(last[1]?.content).toContain('SUMMARY #');
    expect(last[1]?.content).toContain('# Follow-up from the user\nNow read all the chunks');

    // P6.27: the transcript was rewritten to the guarded conversation; the first job's thread is kept as it was.
    const threads = splitThreads(parseTranscript(transcriptOf(h.maestro, taskId).read()));
    expect(threads).toHaveLength(2);
    expect(threads[0]?.map((l) => l.message.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(threads[1]?.map((l) => l.message).slice(0, last.length)).toEqual(last);

    // P9.22: the run log still has every ToolTurn with the original result, however the prompt was shortened.
    const toolTurns = h.maestro.store.logEntries
      .listForTask(taskId)
      .filter((e) => e.kind === 'ToolTurn')
      .map((e) => e.body as { name: string; result: string; chars: number });
    const readTurns = toolTurns.filter((t) => t.name === 'read_chunk');
    expect(readTurns).toHaveLength(24);
    for (const t of readTurns) expect(t.chars).toBe(CHUNK);
    expect(readTurns.every((t) => !t.result.includes(compactNote(0).slice(0, 10)))).toBe(true);
    expect(h.maestro.store.logEntries.listForTask(taskId).filter((e) => e.kind === 'Invoke')).toHaveLength(2);

    console.info(
      `[prompt guard run] window ${WINDOW}, reserve ${RESERVE}: ${agent.length} requests, ` +
        `estimates max ${Math.max(...sizes)} / unguarded would reach ~${24 * 760}, ` +
        `${reports.length} rewrites (${reports.map((r) => `${r.beforeTokens}→${r.afterTokens} ${r.steps.map((s) => s.step).join('+')} @${r.firstChangedIndex}`).join('; ')}), ` +
        `${summaries.length} summaries`,
    );
  });

  it('P4.18 a result too big for the window even after every step: the job fails with a context overflow', async () => {
    const huge: AnyToolDef = {
      ...readChunk,
      name: 'read_all',
      execute: async () => ({ kind: 'result', ok: true, content: 'z'.repeat(40_000) }),
    };
    const server = await serverFor([call('read_all', { path: 'x' }), complete()]);
    const h = await engineHarness([], {
      server,
      tools: [huge],
      options: { promptGuard: recordingGuard(server, []) },
    });
    const { jobId } = h.createTask('Read it all');
    const job = await h.waitFor(jobId, SETTLED);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/context overflow: the prompt is ~\d+ tokens .* over the budget of 4976 tokens/);
    expect(server.requests.filter((r) => !isSummary(r))).toHaveLength(1); // the oversized prompt was never sent
  });
});

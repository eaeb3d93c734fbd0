// The prompt guard's steps on conversations built directly: estimate, dedup, compact, summarize, overflow.
import { describe, expect, it } from 'vitest';
import { checkTokenLimit, estimatePromptTokens, tokenCounterFor } from '../llm/tokens';
import type { ChatMessage, LlmRequest, ToolSpec } from '../llm/types';
import type { LlmPort } from './llm-port';
import {
  createPromptGuard,
  type GuardVerdict,
  type PromptGuardOptions,
  passThroughGuard,
  profilePromptGuard,
} from './prompt-guard';
import { compactNote, compactText } from './prompt-guard/compact';
import { DEDUP_MARKER } from './prompt-guard/dedup';
import { llmSummarizer, renderForSummary, SUMMARIZER_SYSTEM } from './prompt-guard/llm-summarizer';
import { SUMMARY_HEADING } from './prompt-guard/summarize';

const TOOLS: ToolSpec[] = [
  { type: 'function', function: { name: 'read_file', description: 'Reads a file.', parameters: { type: 'object' } } },
  { type: 'function', function: { name: 'complete', description: 'Ends the task.', parameters: { type: 'object' } } },
];
const SYSTEM: ChatMessage = { role: 'system', content: 'You are the agent.\n\n# Movement: work\nDo it.' };
const TASK: ChatMessage = { role: 'user', content: '# Context\nCurrent time: now\n\n# Task\nRead the files.' };

/** Deterministic text of `n` ASCII characters (n/4 tokens), different per seed. */
const text = (seed: string, n: number) => `${seed}:`.padEnd(n, `${seed} lorem ipsum `).slice(0, n);

const turn = (id: string, args: Record<string, unknown>, result: string, name = 'read_file'): ChatMessage[] => [
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
  },
  { role: 'tool', tool_call_id: id, content: result },
];

/** A conversation's estimate + reserve: the window that fits it exactly. */
const windowFor = (messages: ChatMessage[], reserve: number) => estimatePromptTokens(messages, TOOLS) + reserve;

/** System only at 0, then user; no two user messages adjoin; every call answered right after, no orphan result. */
function expectValid(messages: readonly ChatMessage[]): void {
  expect(messages[0]?.role).toBe('system');
  expect(messages.slice(1).some((m) => m.role === 'system')).toBe(false);
  expect(messages[1]?.role).toBe('user');
  let open = new Set<string>();
  for (let i = 1; i < messages.length; i++) {
    const m = messages[i] as ChatMessage;
    const prev = messages[i - 1] as ChatMessage;
    if (m.role === 'user') expect(prev.role, `user at ${i}`).not.toBe('user');
    if (m.role === 'tool') {
      expect(open.has(m.tool_call_id), `result ${m.tool_call_id} answers an open call`).toBe(true);
      open.delete(m.tool_call_id);
    } else {
      expect(open.size, `calls left unanswered before ${i}`).toBe(0);
      open = new Set(m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.id) : []);
    }
  }
  expect(open.size).toBe(0);
}

/** The rewrite keeps index 0 and everything before the first changed index byte-identical (P5.13). */
function expectPrefixKept(before: readonly ChatMessage[], verdict: GuardVerdict): ChatMessage[] {
  if (verdict.kind !== 'rewrite') throw new Error(`expected a rewrite, got ${verdict.kind}`);
  const { messages, report } = verdict;
  expect(JSON.stringify(messages[0])).toBe(JSON.stringify(before[0]));
  const first = report.firstChangedIndex as number;
  expect(first).toBeGreaterThanOrEqual(1);
  expect(JSON.stringify(messages.slice(0, first))).toBe(JSON.stringify(before.slice(0, first)));
  expect(report.afterTokens).toBe(estimatePromptTokens(messages, TOOLS));
  expect(report.afterTokens).toBeLessThanOrEqual(report.budgetTokens);
  // What the guard lets through, the LLM client's own check (P4.19) lets through too.
  expect(() => checkTokenLimit(messages, TOOLS, report.contextWindow, report.reserveTokens)).not.toThrow();
  expectValid(messages);
  return messages;
}

const guard = (options: PromptGuardOptions) => createPromptGuard({ reserveTokens: 200, ...options });

describe('prompt guard', () => {
  it('P4.14 a prompt within budget passes untouched (and without a context window every prompt does)', async () => {
    const messages = [SYSTEM, TASK, ...turn('c1', { path: 'a' }, text('a', 4000))];
    const verdict = await guard({ contextWindow: windowFor(messages, 200) }).check(messages, TOOLS);
    expect(verdict.kind).toBe('unchanged');
    expect(verdict.report?.beforeTokens).toBe(estimatePromptTokens(messages, TOOLS));
    expect(verdict.report?.steps).toEqual([]);
    expect(await createPromptGuard({}).check(messages, TOOLS)).toEqual({ kind: 'unchanged' });
    expect(profilePromptGuard({ model: 'gpt-4o' }, () => ({}) as LlmPort)).toBe(passThroughGuard);
  });

  it("P4.14 a profile's guard counts with the model family's tokenizer, the one its LLM client checks with", async () => {
    const messages = [SYSTEM, TASK, ...turn('c1', { path: 'a' }, text('a', 4000))];
    const counter = tokenCounterFor('gpt-4o');
    const exact = estimatePromptTokens(messages, TOOLS, counter);
    expect(exact).not.toBe(estimatePromptTokens(messages, TOOLS));
    const guard = profilePromptGuard({ model: 'gpt-4o', contextWindow: exact + 1024 }, () => ({}) as LlmPort);
    const verdict = await guard.check(messages, TOOLS);
    expect(verdict.kind).toBe('unchanged');
    expect(verdict.report?.beforeTokens).toBe(exact);
    expect(checkTokenLimit(messages, TOOLS, exact + 1024, 1024, counter)).toBe(exact);
  });

  it('P4.15 P5.13 dedup: earlier identical results of identical calls become a marker, the latest stays', async () => {
    const same = text('same', 4000);
    const messages = [
      SYSTEM,
      TASK,
      ...turn('c1', { path: 'a.ts', offset: 0 }, same),
      ...turn('c2', { path: 'b.ts' }, text('b', 400)),
      ...turn('c3', { offset: 0, path: 'a.ts' }, same), // same call, keys in another order
      ...turn('c4', { path: 'a.ts', offset: 0 }, text('changed', 4000)), // same call, the file changed: kept
      ...turn('c5', { path: 'a.ts', offset: 0 }, same),
    ];
    const verdict = await guard({ contextWindow: windowFor(messages, 200) - 1500 }).check(messages, TOOLS);
    const out = expectPrefixKept(messages, verdict);
    const results = out.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results).toEqual([DEDUP_MARKER, text('b', 400), DEDUP_MARKER, text('changed', 4000), same]);
    expect(verdict.kind === 'rewrite' && verdict.report.steps.map((s) => [s.step, s.messages])).toEqual([['dedup', 2]]);
    expect(verdict.kind === 'rewrite' && verdict.report.firstChangedIndex).toBe(3);
  });

  it('P4.16 P5.13 compact: older results cut to head + tail with a note, oldest first, the last turns never', async () => {
    const results = [1, 2, 3, 4, 5, 6].map((i) => text(`r${i}`, 8000));
    const messages = [SYSTEM, TASK, ...results.flatMap((r, i) => turn(`c${i + 1}`, { path: `f${i + 1}` }, r))];
    // Room for about four whole results: two must go (target 75% → three), the last two turns are kept.
    const verdict = await guard({ contextWindow: windowFor(messages, 200) - 4000, keepTurns: 2 }).check(
      messages,
      TOOLS,
    );
    const out = expectPrefixKept(messages, verdict);
    const after = out.filter((m) => m.role === 'tool').map((m) => m.content);
    const compacted = after.map((c) => c.includes('omitted by the prompt guard'));
    expect(compacted.slice(-2)).toEqual([false, false]);
    expect(after.slice(-2)).toEqual(results.slice(-2));
    // Oldest first: a compacted result never follows a whole one.
    expect(compacted.indexOf(false)).toBe(compacted.lastIndexOf(true) + 1);
    expect(compacted[0]).toBe(true);
    const first = after[0] as string;
    expect(first.startsWith((results[0] as string).slice(0, 1000))).toBe(true);
    expect(first.endsWith((results[0] as string).slice(-500))).toBe(true);
    expect(first).toContain(compactNote(8000 - 1500));
    expect(verdict.kind === 'rewrite' && verdict.report.steps.map((s) => s.step)).toEqual(['compact']);
    // Compacted text is not compacted again.
    expect(compactText(first, 1000, 500)).toBeNull();
  });

  it('P4.17 P5.13 summarize: the older turns become ONE user message (task kept + summary); pairs and roles stay valid', async () => {
    // Results too short to compact: only a summary can make room.
    const turns = Array.from({ length: 12 }, (_, i) => turn(`c${i + 1}`, { path: `f${i + 1}` }, text(`r${i}`, 1200)));
    const messages = [SYSTEM, TASK, ...turns.flat(), { role: 'user', content: 'Note: keep going.' } as ChatMessage];
    const seen: ChatMessage[][] = [];
    const g = guard({
      contextWindow: windowFor(messages, 200) - 1500,
      keepTurns: 2,
      summarize: async (m) => {
        seen.push([...m]);
        return 'SUMMARY: read f1..fN; nothing changed yet.';
      },
    });
    const verdict = await g.check(messages, TOOLS);
    const out = expectPrefixKept(messages, verdict);
    expect(verdict.kind === 'rewrite' && verdict.report.steps.map((s) => s.step)).toEqual(['summarize']);
    expect(verdict.kind === 'rewrite' && verdict.report.firstChangedIndex).toBe(1);
    expect(out[1]?.role).toBe('user');
    expect(String(out[1]?.content).startsWith(`${TASK.content}\n\n${SUMMARY_HEADING}\n`)).toBe(true);
    expect(out[1]?.content).toContain('SUMMARY: read f1..fN; nothing changed yet.');
    expect(out[2]?.role).toBe('assistant');
    // The summarizer got exactly the replaced messages; what follows is the input's tail, byte for byte.
    expect(seen).toHaveLength(1);
    const replaced = seen[0] as ChatMessage[];
    expect(replaced[0]).toEqual(TASK);
    expect(JSON.stringify(out.slice(2))).toBe(JSON.stringify(messages.slice(1 + replaced.length)));
    // The last two turns and the note are kept.
    expect(JSON.stringify(out.slice(-5))).toBe(JSON.stringify(messages.slice(-5)));

    // A second summary replaces the first: the task stays once, the old summary goes to the summarizer.
    const grown = [...out, ...Array.from({ length: 8 }, (_, i) => turn(`d${i}`, { p: i }, text(`s${i}`, 1200))).flat()];
    const second = await guard({
      contextWindow: windowFor(grown, 200) - 1000,
      keepTurns: 2,
      summarize: async () => 'SECOND',
    }).check(grown, TOOLS);
    const out2 = expectPrefixKept(grown, second);
    expect(String(out2[1]?.content).startsWith(`${TASK.content}\n\n${SUMMARY_HEADING}\n`)).toBe(true);
    expect(String(out2[1]?.content).split(SUMMARY_HEADING)).toHaveLength(2);
    expect(out2[1]?.content).toMatch(/SECOND$/);
  });

  it('P4.17 a failing (or missing) summarizer leaves a list of the calls made; a long summary is cut', async () => {
    const turns = Array.from({ length: 10 }, (_, i) => turn(`c${i}`, { path: `f${i}` }, text(`r${i}`, 1200)));
    const messages = [SYSTEM, TASK, ...turns.flat()];
    const contextWindow = windowFor(messages, 200) - 1200;
    const failing = await guard({
      contextWindow,
      summarize: async () => {
        throw new Error('LLM down');
      },
    }).check(messages, TOOLS);
    const out = expectPrefixKept(messages, failing);
    expect(out[1]?.content).toContain('No summary could be made: LLM down');
    expect(out[1]?.content).toContain('- read_file {"path":"f0"}');
    expect(failing.kind === 'rewrite' && failing.report.steps[0]?.failure).toBe('LLM down');

    const long = await guard({ contextWindow, summaryTokens: 100, summarize: async () => 'x'.repeat(5000) }).check(
      messages,
      TOOLS,
    );
    const cut = expectPrefixKept(messages, long);
    expect(cut[1]?.content).toMatch(/x{100} …$/);
  });

  it('P4.15 P4.16 steps run in order and only while over budget: dedup enough → no compact', async () => {
    const same = text('same', 6000);
    const messages = [
      SYSTEM,
      TASK,
      ...turn('c1', { path: 'a' }, same),
      ...turn('c2', { path: 'b' }, text('b', 6000)),
      ...turn('c3', { path: 'a' }, same),
    ];
    const verdict = await guard({ contextWindow: windowFor(messages, 200) - 1000, keepTurns: 0 }).check(
      messages,
      TOOLS,
    );
    expectPrefixKept(messages, verdict);
    expect(verdict.kind === 'rewrite' && verdict.report.steps.map((s) => s.step)).toEqual(['dedup']);
  });

  it('P4.18 overflow when nothing is left to shrink: the message names the budget and what takes it', async () => {
    const huge = [SYSTEM, TASK, ...turn('c1', { path: 'a' }, text('a', 40_000))];
    const verdict = await guard({ contextWindow: 4000, summarize: async () => 'S' }).check(huge, TOOLS);
    expect(verdict.kind).toBe('overflow');
    const message = verdict.kind === 'overflow' ? verdict.message : '';
    expect(message).toMatch(/^context overflow: the prompt is ~\d+ tokens/);
    expect(message).toContain('over the budget of 3800 tokens (context window 4000 minus 200 reserved for the answer)');
    expect(message).toMatch(/the last 2 turns ~\d+/);
    // A system message bigger than the window alone.
    const bigSystem: ChatMessage[] = [{ role: 'system', content: text('s', 20_000) }, TASK];
    expect((await guard({ contextWindow: 1000 }).check(bigSystem, TOOLS)).kind).toBe('overflow');
  });

  it('P4.17 the LLM summarizer asks without tools and fits its input into the context window', async () => {
    const requests: LlmRequest[] = [];
    const llm: LlmPort = {
      generate: async (request) => {
        requests.push(request);
        return { text: ' the summary ', toolCalls: [], finishReason: 'stop', usage: null, calls: [] } as never;
      },
    };
    const turns = Array.from({ length: 30 }, (_, i) => turn(`c${i}`, { path: `f${i}` }, text(`r${i}`, 9000))).flat();
    const summarize = llmSummarizer(llm, { contextWindow: 3000, reserveTokens: 500 });
    expect(await summarize([TASK, ...turns])).toBe(' the summary ');
    const request = requests[0] as LlmRequest;
    expect(request.tools).toEqual([]);
    expect(request.messages[0]).toEqual({ role: 'system', content: SUMMARIZER_SYSTEM });
    expect(() => checkTokenLimit(request.messages, [], 3000, 500)).not.toThrow();
    expect(request.messages[1]?.content).toContain('CALL read_file {"path":"f0"}');
    const small = renderForSummary([TASK, ...turn('c', { p: 1 }, 'short')], 1000);
    expect(small).toBe(`USER: ${TASK.content}\n\nASSISTANT: \nCALL read_file {"p":1}\n\nRESULT of c: short`);
  });
});

import { describe, expect, it } from 'vitest';
import { engineHarness, SETTLED } from '../../test-support/engine-harness';
import { tempDir, testMaestro } from '../../test-support/temp-maestro';
import { transcriptOf } from '../../test-support/transcript-lines';
import { jobJournals } from '../jobs/journal';
import type { ChatMessage, LlmRequest, LlmResult, LlmToolCall } from '../llm/types';
import { NO_RULES } from '../tools/permission';
import { assistantTurn, EMPTY_REPLY, isQuestion } from './assistant-reply';
import { parseTranscript } from './conversation';
import { DEFAULT_LIMITS } from './job-run';
import type { LlmPort } from './llm-port';
import { runPiece } from './piece-runner';
import { passThroughGuard } from './prompt-guard';

type Reply = Partial<Omit<LlmResult, 'usage' | 'calls'>>;

const result = (r: Reply, callNumber = 1): LlmResult => ({
  text: '',
  reasoning: '',
  toolCalls: [],
  finishReason: (r.toolCalls?.length ?? 0) > 0 ? 'tool_calls' : 'stop',
  ...r,
  usage: { promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0 },
  calls: [
    {
      callNumber,
      attempt: 1,
      startedAt: 0,
      latencyMs: 0,
      ttftMs: null,
      usage: null,
      outcome: 'ok',
    },
  ],
});

const TOOLS = new Set(['read_file', 'complete']);
const call = (name: string, args: object, id = `call_${name}`, extra?: unknown): LlmToolCall => ({
  id,
  name,
  arguments: JSON.stringify(args),
  ...(extra === undefined ? {} : { extra }),
});

// Shapes of what backends send beside the text: OpenRouter's reasoning_details blocks (reasoning.text with its
// signature, reasoning.encrypted: @openrouter/ai-sdk-provider src/schemas/reasoning-details.ts) and Gemini's thought
// signatures in extra_content (https://ai.google.dev/gemini-api/docs/openai, "thought signatures").
const DETAILS = [
  { type: 'reasoning.text', text: 'Plan first.', signature: 'c2lnLUE=', format: 'anthropic-claude-v1', index: 0 },
  { type: 'reasoning.encrypted', data: 'ZW5jcnlwdGVk', format: 'anthropic-claude-v1', index: 1 },
];
const MESSAGE_EXTRA = { google: { thought_signature: 'bWVzc2FnZQ==' } };
const CALL_EXTRA = { google: { thought_signature: 'Y2FsbA==' } };

describe('the assistant message the engine keeps', () => {
  it('keeps reasoning, reasoning_details, extra_content and each call’s extra_content as sent', () => {
    const turn = assistantTurn(
      result({
        text: 'On it.',
        reasoning: 'Plan first.',
        reasoningDetails: DETAILS,
        extra: MESSAGE_EXTRA,
        toolCalls: [call('read_file', { path: 'a' }, 'c1', CALL_EXTRA)],
      }),
      TOOLS,
    );
    expect(turn.message).toEqual({
      role: 'assistant',
      content: 'On it.',
      reasoning_content: 'Plan first.',
      reasoning_details: DETAILS,
      extra_content: MESSAGE_EXTRA,
      tool_calls: [
        {
          id: 'c1',
          type: 'function',
          function: { name: 'read_file', arguments: '{"path":"a"}' },
          extra_content: CALL_EXTRA,
        },
      ],
    });
    expect(turn.refusal).toBeNull();
  });

  it('a reply without reasoning or provider fields keeps the shape it always had', () => {
    const turn = assistantTurn(result({ toolCalls: [call('read_file', { path: 'a' }, 'c1')] }), TOOLS);
    expect(JSON.stringify(turn.message)).toBe(
      '{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"read_file","arguments":"{\\"path\\":\\"a\\"}"}}]}',
    );
  });

  it('an empty or whitespace reply, or one with reasoning only, never becomes a null or blank content', () => {
    expect(assistantTurn(result({}), TOOLS).message).toEqual({ role: 'assistant', content: EMPTY_REPLY });
    expect(assistantTurn(result({ text: '\n\n' }), TOOLS).message.content).toBe(EMPTY_REPLY);
    expect(assistantTurn(result({ reasoning: 'Hmm.' }), TOOLS).message).toEqual({
      role: 'assistant',
      content: EMPTY_REPLY,
      reasoning_content: 'Hmm.',
    });
  });

  it('calls written as text become real tool_calls with nine-character ids; the text without markup is the content', () => {
    const text =
      'Reading both.\n<tool_call>{"name": "read_file", "arguments": {"path": "a"}}</tool_call>\n' +
      '<tool_call>{"name": "read_file", "arguments": {"path": "b"}}</tool_call>';
    const turn = assistantTurn(result({ text }, 12), TOOLS);
    expect(turn.toolCalls).toEqual([
      { id: 'txt001200', name: 'read_file', arguments: '{"path":"a"}' },
      { id: 'txt001201', name: 'read_file', arguments: '{"path":"b"}' },
    ]);
    expect(turn.message.content).toBe('Reading both.');
    expect(turn.message.tool_calls?.map((c) => c.id)).toEqual(['txt001200', 'txt001201']);
    for (const c of turn.toolCalls) expect(c.id).toMatch(/^[A-Za-z0-9]{9}$/);
  });

  it('calls the server returned are not read again from the text', () => {
    const turn = assistantTurn(
      result({
        text: '<tool_call>{"name": "complete", "arguments": {}}</tool_call>',
        toolCalls: [call('read_file', {})],
      }),
      TOOLS,
    );
    expect(turn.toolCalls.map((c) => c.name)).toEqual(['read_file']);
  });

  it('finish_reason content_filter is a refusal in the model’s words, or says the filter stopped it', () => {
    const said = assistantTurn(result({ text: 'I can’t help with that.', finishReason: 'content_filter' }), TOOLS);
    expect(said.refusal).toBe('I can’t help with that.');
    expect(said.message).toEqual({ role: 'assistant', content: 'I can’t help with that.' });
    const silent = assistantTurn(result({ finishReason: 'content_filter', toolCalls: [call('read_file', {})] }), TOOLS);
    expect(silent.refusal).toMatch(/content_filter/);
    expect(silent.toolCalls).toEqual([]);
    expect(silent.message).toEqual({ role: 'assistant', content: EMPTY_REPLY });
  });

  it('a text asks the user something when it ends with a question mark, past closing quotes and emphasis', () => {
    expect(isQuestion('Which file should I change?')).toBe(true);
    expect(isQuestion('Shall I go on? **')).toBe(true);
    expect(isQuestion('どちらのファイルを直しますか？')).toBe(true);
    expect(isQuestion('Should I? No: I changed a.md and b.md.')).toBe(false);
    expect(isQuestion('Done.')).toBe(false);
  });
});

/** A Maestro whose engine runs pieces on `replies` through an LLM port that records what each request carried. */
function portMaestro(replies: Reply[]) {
  const requests: ChatMessage[][] = [];
  let calls = 0;
  const port: LlmPort = {
    async generate(request: LlmRequest, hooks = {}) {
      calls++;
      requests.push(JSON.parse(JSON.stringify(request.messages)) as ChatMessage[]);
      const next = replies.shift();
      if (!next) throw new Error(`request #${calls} found no reply`);
      hooks.onLlmCallStart?.({ callNumber: calls, attempt: 1, startedAt: Date.now() });
      const reply = result(next, calls);
      for (const record of reply.calls) hooks.onLlmCallEnd?.(record);
      return reply;
    },
  };
  const dataDir = tempDir();
  const maestro = testMaestro({
    dataDir,
    defaultWorkspace: tempDir('maestro-ws-'),
    pieceRouter: false,
    env: { MAESTRO_LLM_BASE_URL: 'http://127.0.0.1:9/v1', MAESTRO_LLM_MODEL: 'port', MAESTRO_LLM_API_KEY: 'sk-test' },
    engine: ({ store }) => ({
      runPiece: (ctx) =>
        runPiece(
          {
            journals: jobJournals(store),
            llmFor: () => port,
            toolsFor: () => ({ tools: [], allows: () => true, rules: NO_RULES }),
            options: {
              limits: DEFAULT_LIMITS,
              promptGuard: passThroughGuard,
              deadlineMs: null,
              streamIntervalMs: 5,
              sandbox: { ok: false, reason: 'none in this test' },
            },
          },
          ctx,
        ),
    }),
    worker: { concurrency: 1, pollIntervalMs: 10, heartbeatIntervalMs: 50 },
  });
  maestro.start();
  const settled = async (jobId: string) => {
    await expect.poll(() => maestro.store.jobs.get(jobId)?.status, { timeout: 10_000 }).toBe('succeeded');
  };
  return { maestro, requests, dataDir, settled };
}

const byCallId = (messages: ChatMessage[], id: string) =>
  messages.find((m) => m.role === 'assistant' && m.tool_calls?.some((c) => c.id === id));

describe('reasoning and provider fields through the run', () => {
  it('P3.02 P6.09 across a movement transition and a Continue the assistant message goes back byte for byte', async () => {
    const first: Reply = {
      text: 'Planning.',
      reasoning: 'Plan first.',
      reasoningDetails: DETAILS,
      extra: MESSAGE_EXTRA,
      toolCalls: [call('transition', { next: 'implement' }, 'gen_call_1', CALL_EXTRA)],
    };
    const h = portMaestro([
      first,
      { toolCalls: [call('transition', { next: 'review' }, 'gen_call_2')] },
      { toolCalls: [call('complete', { status: 'success', message: 'v1' }, 'gen_call_3')] },
      { toolCalls: [call('complete', { status: 'success', message: 'v2' }, 'gen_call_4')] },
    ]);
    const { task, job } = h.maestro.invoke('createTask', { instruction: 'Build it', pieceId: 'plan-implement-review' });
    await h.settled(job.id);
    const expected = JSON.stringify(assistantTurn(result(first), new Set()).message);
    expect(expected).toContain('"reasoning_content":"Plan first."');
    // The transcript keeps it, and the requests after the transition carry it unchanged.
    const transcript = transcriptOf(h.maestro, task.id).read();
    const kept = parseTranscript(transcript).map((l) => JSON.stringify(l.message));
    expect(kept).toContain(expected);
    expect(JSON.stringify(byCallId(h.requests[1] ?? [], 'gen_call_1'))).toBe(expected);
    expect(JSON.stringify(byCallId(h.requests[2] ?? [], 'gen_call_1'))).toBe(expected);

    const next = h.maestro.invoke('continueTask', { taskId: task.id, instruction: 'Now add tests.' }).job;
    await h.settled(next.id);
    expect(h.requests).toHaveLength(4);
    expect(JSON.stringify(byCallId(h.requests[3] ?? [], 'gen_call_1'))).toBe(expected);
  });

  it('P4.24 a reasoning model’s streamed reasoning_content is kept on its assistant message in the transcript', async () => {
    const h = await engineHarness([
      { reasoning: 'The user wants a tidy file.', toolCalls: [{ name: 'no_tool', arguments: {}, id: 'r1' }] },
      { toolCalls: [{ name: 'complete', arguments: { status: 'success', message: 'ok' } }] },
    ]);
    const { taskId, jobId } = h.createTask('Tidy');
    expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
    const lines = parseTranscript(transcriptOf(h.maestro, taskId).read());
    const assistant = lines.map((l) => l.message).find((m) => m.role === 'assistant');
    expect(assistant).toMatchObject({ reasoning_content: 'The user wants a tidy file.', content: null });
  });
});

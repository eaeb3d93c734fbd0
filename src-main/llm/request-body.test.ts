// The request body per profile kind: what of an assistant message's extras goes back, byte for byte, and which
// optional parameters are sent. A conversation without extras is sent as it is, for every kind.
import { describe, expect, it } from 'vitest';
import { ProviderKind } from '../../src-shared/contract/profiles';
import { kit } from '../../test-support/llm-kit';
import { LlmClient } from './client';
import type { LlmProfile } from './profiles';
import { PROVIDER_QUIRKS } from './provider-kinds';
import { requestBody, requestMessages } from './request-body';
import type { ChatMessage, ToolSpec } from './types';

const TOOLS: ToolSpec[] = [{ type: 'function', function: { name: 'read', description: 'r', parameters: {} } }];

// Shapes: DeepSeek `reasoning_content` (api-docs.deepseek.com/guides/thinking_mode), OpenRouter `reasoning_details`
// (openrouter.ai/docs, reasoning tokens: `reasoning.text` blocks with a signature), Gemini's thought signature in
// `extra_content.google.thought_signature` on the call (ai.google.dev/gemini-api/docs/openai, thought signatures).
const DETAILS = [{ type: 'reasoning.text', text: 'Look first.', signature: 'sig-or-1', format: 'anthropic-claude-v1' }];
const CALL_EXTRA = { google: { thought_signature: 'CtQBAdHtim9+Zg==' } };
const MESSAGE_EXTRA = { google: { thought_signature: 'Msg0AbCdEf==' } };

const TOOL_TURN: ChatMessage = {
  role: 'assistant',
  content: null,
  reasoning_content: 'I should read the file.',
  reasoning_details: DETAILS,
  extra_content: MESSAGE_EXTRA,
  tool_calls: [
    {
      id: 'call_1',
      type: 'function',
      function: { name: 'read', arguments: '{"path":"a.txt"}' },
      extra_content: CALL_EXTRA,
    },
  ],
};
const TEXT_TURN: ChatMessage = { role: 'assistant', content: 'Done.', reasoning_content: 'All read.' };
const CONVERSATION: ChatMessage[] = [
  { role: 'system', content: 'You are a test agent.' },
  { role: 'user', content: 'Read a.txt' },
  TOOL_TURN,
  { role: 'tool', tool_call_id: 'call_1', content: 'hello' },
  TEXT_TURN,
  { role: 'user', content: 'Again' },
];

const CALL =
  '"tool_calls":[{"id":"call_1","type":"function","function":{"name":"read","arguments":"{\\"path\\":\\"a.txt\\"}"}';
const STRIPPED = `{"role":"assistant","content":null,${CALL}}]}`;
/** The assistant tool-call turn as each kind is sent it. */
const SENT_TOOL_TURN: Record<ProviderKind, string> = {
  generic: STRIPPED,
  openai: STRIPPED,
  mistral: STRIPPED,
  groq: STRIPPED,
  llamacpp: STRIPPED,
  ollama: STRIPPED,
  lmstudio: STRIPPED,
  vllm: STRIPPED,
  deepseek: `{"role":"assistant","content":null,"reasoning_content":"I should read the file.",${CALL}}]}`,
  moonshot: `{"role":"assistant","content":null,"reasoning_content":"I should read the file.",${CALL}}]}`,
  openrouter: `{"role":"assistant","content":null,"reasoning_details":${JSON.stringify(DETAILS)},${CALL}}]}`,
  gemini: `{"role":"assistant","content":null,"extra_content":${JSON.stringify(MESSAGE_EXTRA)},${CALL},"extra_content":${JSON.stringify(CALL_EXTRA)}}]}`,
};

const profile = (kind: ProviderKind, extra: Partial<LlmProfile> = {}): LlmProfile => ({
  name: 'p',
  baseURL: 'http://127.0.0.1:1/v1',
  model: 'm',
  apiKey: '',
  kind,
  ...extra,
});

describe('requestMessages: what goes back per kind', () => {
  it.each(ProviderKind.options)('%s: the tool-call turn is sent back as the kind needs it, byte for byte', (kind) => {
    const sent = requestMessages(CONVERSATION, kind);
    expect(JSON.stringify(sent[2])).toBe(SENT_TOOL_TURN[kind]);
    // A text-only turn's reasoning goes back to no one (DeepSeek ignores it there).
    expect(JSON.stringify(sent[4])).toBe('{"role":"assistant","content":"Done."}');
    expect(sent.filter((_, i) => i !== 2 && i !== 4)).toEqual(CONVERSATION.filter((_, i) => i !== 2 && i !== 4));
  });

  it.each(ProviderKind.options)('%s: the transcript keeps every extra (the input is not changed)', (kind) => {
    const before = JSON.stringify(CONVERSATION);
    requestMessages(CONVERSATION, kind);
    expect(JSON.stringify(CONVERSATION)).toBe(before);
  });

  it.each(ProviderKind.options)('%s: a conversation without extras is sent as it is, the same objects', (kind) => {
    const plain: ChatMessage[] = [
      CONVERSATION[0] as ChatMessage,
      {
        role: 'assistant',
        content: 'hi',
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'read', arguments: '{}' } }],
      },
      { role: 'assistant', content: null, tool_calls: [] },
    ];
    const sent = requestMessages(plain, kind);
    expect(sent).not.toBe(plain);
    for (const [i, m] of sent.entries()) expect(m).toBe(plain[i]);
  });
});

describe('requestBody: the optional parameters each kind is sent', () => {
  const request = { messages: CONVERSATION.slice(0, 2), tools: TOOLS, parallelToolCalls: false };

  it('generic sends what it sent before kinds: stream_options, and parallel_tool_calls when set', () => {
    const body = requestBody(profile('generic', { temperature: 0.2 }), request);
    expect(JSON.stringify(body)).toBe(
      JSON.stringify({
        model: 'm',
        messages: request.messages,
        tools: TOOLS,
        temperature: 0.2,
        parallel_tool_calls: false,
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
  });

  it('Mistral is never sent stream_options (it answers 422 extra_forbidden)', () => {
    const body = requestBody(profile('mistral'), request);
    expect(body).not.toHaveProperty('stream_options');
    expect(body.parallel_tool_calls).toBe(false);
  });

  it.each(ProviderKind.options)('%s: parallel_tool_calls only where the kind takes it', (kind) => {
    const body = requestBody(profile(kind), request);
    expect('parallel_tool_calls' in body).toBe(PROVIDER_QUIRKS[kind].parallelToolCalls);
    expect('stream_options' in body).toBe(PROVIDER_QUIRKS[kind].streamOptions);
  });

  it('a parameter the server rejected is left out, whatever the kind', () => {
    const rejected = new Set(['stream_options', 'parallel_tool_calls', 'temperature'] as const);
    const body = requestBody(profile('generic', { temperature: 0.2 }), request, { rejected, sendBack: new Set() });
    expect(Object.keys(body)).toEqual(['model', 'messages', 'tools', 'stream']);
  });

  it("P4.20 an extra the server asked for goes back beside the kind's own, on the messages that have it", () => {
    const full = { messages: CONVERSATION, tools: TOOLS };
    const asked = { rejected: new Set<never>(), sendBack: new Set(['reasoning_content_on_tool_turns'] as const) };
    expect(JSON.stringify(requestBody(profile('generic'), full, asked))).toContain(SENT_TOOL_TURN.deepseek);
    const both = JSON.stringify(requestBody(profile('openrouter'), full, asked));
    expect(both).toContain('"reasoning_content":"I should read the file."');
    expect(both).toContain('"reasoning_details":');
    // A text turn's reasoning never goes back: DeepSeek ignores it, and it costs tokens.
    expect(both).not.toContain('All read.');
  });

  it('the same request builds the same bytes (every LlmCall of an AgentTurn sends them)', () => {
    const p = profile('gemini');
    const full = { messages: CONVERSATION, tools: TOOLS };
    expect(JSON.stringify(requestBody(p, full))).toBe(JSON.stringify(requestBody(p, full)));
  });
});

/** The `messages` array of a request as sent, without its closing bracket: a later request extends it. */
const messagesPrefix = (raw: string) => raw.slice(0, raw.indexOf('],"tools"'));

describe('through the SDK: the bytes sent per kind across a movement transition and a Continue', () => {
  it.each(ProviderKind.options)(
    '%s: extras go back as the kind needs, and every later request extends the bytes',
    async (kind) => {
      const {
        server,
        client,
        profile: p,
      } = await kit(
        { script: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] },
        {
          profile: { kind },
        },
      );
      const first = CONVERSATION.slice(0, 4);
      await client.generate({ messages: first, tools: TOOLS });
      // A movement transition: the same conversation, guidance appended.
      const next = [...CONVERSATION, { role: 'user' as const, content: '# Movement: review' }];
      await client.generate({ messages: next, tools: TOOLS });
      // A Continue: another job's client, the conversation as the transcript stored it.
      const replayed = JSON.parse(JSON.stringify(next)) as ChatMessage[];
      await new LlmClient({ profile: { ...p }, log: () => {} }).generate({ messages: replayed, tools: TOOLS });
      const raws = server.requests.map((r) => r.rawBody);
      expect(raws[0]).toContain(SENT_TOOL_TURN[kind]);
      expect(raws[1]?.startsWith(messagesPrefix(raws[0] ?? ''))).toBe(true);
      expect(raws[2]).toBe(raws[1]);
    },
  );
});

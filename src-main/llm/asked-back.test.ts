// A 400 that names what an assistant message lacks (reasoning_content, a thought signature) through the real SDK and
// LlmClient: the LlmCall is sent again once with it and the profile remembers; any other 400 fails as before. And the
// kind a generic profile acts as, from its base URL.
import { describe, expect, it } from 'vitest';
import { effectiveKind, kindOfBaseURL, type SentBack } from '../../src-shared/contract/profiles';
import { failure, kit } from '../../test-support/llm-kit';
import { deepseekRefusal, geminiRefusal, kimiRefusal } from '../../test-support/provider-shapes/refusals';
import type { RawReply, RecordedRequest } from '../../test-support/scripted-llm-server';
import { askedBack } from './asked-back';
import type { LlmProfile } from './profiles';
import { requestBody } from './request-body';
import type { ChatMessage, ToolSpec } from './types';

const TOOLS: ToolSpec[] = [{ type: 'function', function: { name: 'read', description: 'r', parameters: {} } }];

const CONVERSATION: ChatMessage[] = [
  { role: 'system', content: 'You are a test agent.' },
  { role: 'user', content: 'Read a.txt' },
  {
    role: 'assistant',
    content: null,
    reasoning_content: 'I should read the file.',
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read', arguments: '{}' } }],
  },
  { role: 'tool', tool_call_id: 'call_1', content: 'hello' },
];

/** A conversation's first request with a tool-call turn, as the server sees it. */
const requestOf = (messages: unknown[]): RecordedRequest => ({
  index: 0,
  method: 'POST',
  path: '/v1/chat/completions',
  headers: {},
  rawBody: '',
  body: { messages },
  receivedAt: 0,
});

/** The message of a refusal as the server sends it. */
function refusalText(reply: RawReply | undefined): string {
  if (!reply?.raw.body) throw new Error('expected a refusal');
  return reply.raw.body;
}

describe('askedBack: the extras a server names', () => {
  it('reads each server’s own 400 and nothing else', () => {
    const lacking = requestOf([{ role: 'assistant', content: null, tool_calls: [{ id: 'c' }] }]);
    expect(askedBack(refusalText(deepseekRefusal.refuse(lacking)))).toEqual(['reasoning_content_on_tool_turns']);
    expect(askedBack(refusalText(kimiRefusal.refuse(lacking)))).toEqual(['reasoning_content_on_tool_turns']);
    expect(askedBack(refusalText(geminiRefusal.refuse(lacking)))).toEqual(['extra_content']);
    expect(askedBack('Missing `reasoning_content` field in the assistant message at message index 2.')).toEqual([
      'reasoning_content_on_tool_turns',
    ]);
    expect(askedBack('Invalid model for tools')).toEqual([]);
    expect(askedBack('reasoning_contents is not a field')).toEqual([]);
    expect(askedBack("'temperature' is not supported with this model")).toEqual([]);
  });
});

const REASONING_400 = {
  fault: 'http' as const,
  status: 400,
  message: 'The `reasoning_content` in the thinking mode must be passed back to the API.',
};

describe('P4.23 P9.11 a 400 that names a missing extra', () => {
  it('is sent again at once with it, as another LlmCall of the AgentTurn; the profile remembers it', async () => {
    const remembered: SentBack[][] = [];
    const k = await kit(
      { script: [REASONING_400, { text: 'done' }, { text: 'again' }] },
      { profile: { rememberSendBack: (extras) => remembered.push([...extras]) } },
    );
    const result = await k.client.generate({ messages: CONVERSATION, tools: TOOLS }, k.hooks);
    expect(result.text).toBe('done');
    const [refused, retried] = k.server.requests;
    expect(refused?.rawBody).not.toContain('reasoning_content');
    expect(retried?.rawBody).toContain('"reasoning_content":"I should read the file."');
    expect(result.calls.map((c) => [c.attempt, c.outcome, c.status])).toEqual([
      [1, 'retryable_error', 400],
      [2, 'ok', undefined],
    ]);
    expect(remembered).toEqual([['reasoning_content_on_tool_turns']]);
    // The next generation of the same client sends it from the start.
    await k.client.generate({ messages: CONVERSATION, tools: TOOLS });
    expect(k.server.requests[2]?.rawBody).toContain('"reasoning_content":"I should read the file."');
    k.server.expectEmpty();
  });

  it('a profile that remembered it sends it from the start', async () => {
    const k = await kit(
      { script: [{ text: 'done' }] },
      { profile: { sendBack: ['reasoning_content_on_tool_turns', 'extra_content'] } },
    );
    await k.client.generate({ messages: CONVERSATION, tools: TOOLS });
    expect(k.server.requests[0]?.rawBody).toContain('"reasoning_content":"I should read the file."');
  });

  it('refused again with it: the turn fails with the server’s words, after two requests', async () => {
    const k = await kit({ script: [REASONING_400, REASONING_400] });
    const err = await failure(k.client.generate({ messages: CONVERSATION, tools: TOOLS }));
    expect(err.kind).toBe('terminal');
    expect(err.message).toContain('must be passed back');
    expect(k.server.requests).toHaveLength(2);
  });

  it('naming what this conversation does not have: fails at once, one request, nothing remembered', async () => {
    const remembered: SentBack[][] = [];
    const k = await kit(
      { script: [REASONING_400] },
      { profile: { rememberSendBack: (extras) => remembered.push([...extras]) } },
    );
    const plain = CONVERSATION.map((m) => (m.role === 'assistant' ? { ...m, reasoning_content: undefined } : m));
    const err = await failure(k.client.generate({ messages: JSON.parse(JSON.stringify(plain)), tools: TOOLS }));
    expect(err.kind).toBe('terminal');
    expect(err.hint).toMatch(/does not hold them .* start a new task on profile test/);
    expect(k.server.requests).toHaveLength(1);
    expect(remembered).toEqual([]);
  });

  it('an unrelated 400 fails at once, one request, as before', async () => {
    const remembered: SentBack[][] = [];
    const k = await kit(
      { script: [{ fault: 'http', status: 400, message: 'Invalid model for tools' }] },
      { profile: { rememberSendBack: (extras) => remembered.push([...extras]) } },
    );
    const err = await failure(k.client.generate({ messages: CONVERSATION, tools: TOOLS }));
    expect(err.kind).toBe('terminal');
    expect(err.hint).toBeUndefined();
    expect(k.server.requests).toHaveLength(1);
    expect(remembered).toEqual([]);
  });
});

describe('the kind a generic profile acts as, from its base URL', () => {
  it('names the known hosts exactly; any other host, a look-alike or a bad URL names none', () => {
    expect(kindOfBaseURL('https://api.deepseek.com')).toBe('deepseek');
    expect(kindOfBaseURL('https://api.deepseek.com/v1')).toBe('deepseek');
    expect(kindOfBaseURL('https://API.Moonshot.ai/v1')).toBe('moonshot');
    expect(kindOfBaseURL('https://api.moonshot.cn/v1')).toBe('moonshot');
    expect(kindOfBaseURL('https://generativelanguage.googleapis.com/v1beta/openai/')).toBe('gemini');
    expect(kindOfBaseURL('https://openrouter.ai/api/v1')).toBe('openrouter');
    expect(kindOfBaseURL('https://api.mistral.ai/v1')).toBe('mistral');
    expect(kindOfBaseURL('https://api.deepseek.com.example.net/v1')).toBeUndefined();
    expect(kindOfBaseURL('https://api.deepseek.com@proxy.example.net/v1')).toBeUndefined();
    expect(kindOfBaseURL('https://proxy.example.net/api.deepseek.com')).toBeUndefined();
    expect(kindOfBaseURL('http://127.0.0.1:8080/v1')).toBeUndefined();
    expect(kindOfBaseURL('not a url')).toBeUndefined();
  });

  it('a kind a person picked wins over the URL; generic or none acts as the URL says', () => {
    expect(effectiveKind({ baseURL: 'https://api.deepseek.com' })).toBe('deepseek');
    expect(effectiveKind({ kind: 'generic', baseURL: 'https://api.moonshot.ai/v1' })).toBe('moonshot');
    expect(effectiveKind({ kind: 'openai', baseURL: 'https://api.deepseek.com' })).toBe('openai');
    expect(effectiveKind({ kind: 'generic', baseURL: 'http://127.0.0.1:8080/v1' })).toBe('generic');
  });

  it('a generic profile at api.deepseek.com is sent reasoning back from the first request', () => {
    const profile = (kind: LlmProfile['kind'], baseURL: string): LlmProfile => ({
      name: 'p',
      baseURL,
      model: 'm',
      apiKey: '',
      ...(kind ? { kind } : {}),
    });
    const request = { messages: CONVERSATION, tools: TOOLS };
    const sent = (p: LlmProfile) => JSON.stringify(requestBody(p, request));
    expect(sent(profile('generic', 'https://api.deepseek.com'))).toContain('"reasoning_content"');
    expect(sent(profile(undefined, 'https://api.moonshot.cn/v1'))).toContain('"reasoning_content"');
    expect(sent(profile('generic', 'https://proxy.example.net/v1'))).not.toContain('"reasoning_content"');
    expect(sent(profile('openai', 'https://api.deepseek.com'))).not.toContain('"reasoning_content"');
  });
});

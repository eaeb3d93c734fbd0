// LlmClient streaming through the real openai SDK against the scripted server: deltas, tool calls, usage, hooks.
import { describe, expect, it } from 'vitest';
import { API_KEY, kit, USER } from '../../test-support/llm-kit';
import type { ToolSpec } from './types';

const TOOLS: ToolSpec[] = [
  {
    type: 'function',
    function: {
      name: 'read_file',
      description: 'Read a file',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
  },
];

describe('LlmClient streaming', () => {
  it('P4.20 text deltas arrive in order and add up to the text; one LlmCall with usage (P9.09)', async () => {
    const k = await kit({ script: [{ text: 'Hello from the scripted model!' }] });
    const result = await k.client.generate({ messages: USER }, k.hooks);
    expect(result.text).toBe('Hello from the scripted model!');
    expect(result.finishReason).toBe('stop');
    expect(result.toolCalls).toEqual([]);
    const texts = k.deltas.filter((d) => d.type === 'text').map((d) => d.text);
    expect(texts.length).toBeGreaterThan(1);
    expect(texts.join('')).toBe(result.text);
    expect(result.calls).toHaveLength(1);
    const call = result.calls[0];
    expect(call).toMatchObject({ callNumber: 1, attempt: 1, outcome: 'ok', finishReason: 'stop' });
    expect(call?.usage?.promptTokens).toBeGreaterThan(0);
    expect(call?.ttftMs).not.toBeNull();
    expect(call?.requestId).toBe('req_scripted_0');
    expect(call?.model).toBe('scripted');
    k.server.expectEmpty();
  });

  it('P4.20 tool-call deltas with split arguments are reassembled by index; reasoning deltas', async () => {
    const k = await kit({
      script: [
        {
          reasoning: 'The user wants two files read.',
          text: 'Reading.',
          toolCalls: [
            { name: 'read_file', arguments: { path: 'src/a very long path/that splits.ts' } },
            { name: 'read_file', arguments: { path: 'b.ts' }, id: 'call_b' },
          ],
        },
      ],
    });
    const result = await k.client.generate({ messages: USER, tools: TOOLS }, k.hooks);
    expect(result.finishReason).toBe('tool_calls');
    expect(result.reasoning).toBe('The user wants two files read.');
    expect(result.text).toBe('Reading.');
    expect(result.toolCalls).toHaveLength(2);
    expect(result.toolCalls[0]?.name).toBe('read_file');
    expect(result.toolCalls[0]?.id).toMatch(/^call_/);
    expect(JSON.parse(result.toolCalls[0]?.arguments ?? '')).toEqual({ path: 'src/a very long path/that splits.ts' });
    expect(result.toolCalls[1]).toEqual({ id: 'call_b', name: 'read_file', arguments: '{"path":"b.ts"}' });
    const callDeltas = k.deltas.filter((d) => d.type === 'tool_call' && d.index === 0);
    expect(callDeltas.length).toBeGreaterThan(1);
    expect(callDeltas[0]).toMatchObject({ name: 'read_file' });
    const reasoning = k.deltas.filter((d) => d.type === 'reasoning');
    expect(reasoning.length).toBeGreaterThan(1);
    // Reasoning streams before the answer.
    expect(k.deltas.findIndex((d) => d.type === 'reasoning')).toBeLessThan(
      k.deltas.findIndex((d) => d.type === 'text'),
    );
    const sent = k.server.requests[0]?.body;
    expect(sent?.tools).toEqual(TOOLS);
    expect(sent?.stream_options).toEqual({ include_usage: true });
  });

  it('P5.20 usage carries cached prompt tokens; one prompt_cache log line per LlmCall', async () => {
    const k = await kit({
      script: [{ text: 'one' }, { text: 'two', usage: { promptTokens: 200, cachedTokens: 150 } }],
    });
    const first = await k.client.generate({ messages: USER }, k.hooks);
    expect(first.usage.cachedPromptTokens).toBe(0);
    const second = await k.client.generate(
      { messages: [...USER, { role: 'assistant', content: 'one' }, { role: 'user', content: 'again' }] },
      k.hooks,
    );
    expect(second.usage).toEqual({ promptTokens: 200, completionTokens: 1, cachedPromptTokens: 150 });
    expect(k.logs).toHaveLength(2);
    expect(k.logs[1]).toMatch(/^prompt_cache reused=150 prompt=200 pct=75 /);
  });

  it('P5.20 the default scripted usage reports the shared prefix of a growing conversation as cached', async () => {
    const k = await kit({ script: [{ text: 'one' }, { text: 'two' }] });
    const long = [{ role: 'system' as const, content: 'Static instructions. '.repeat(50) }, ...USER.slice(1)];
    await k.client.generate({ messages: long });
    const second = await k.client.generate({ messages: [...long, { role: 'user', content: 'more' }] });
    expect(second.calls[0]?.usage?.cachedPromptTokens).toBeGreaterThan(200);
    expect(k.logs[1]).toMatch(/^prompt_cache reused=\d+ prompt=\d+ pct=\d+/);
  });

  it('P9.13 LlmCallStart/End hooks carry llm_call_count across generations', async () => {
    const k = await kit({ script: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] });
    await k.client.generate({ messages: USER }, k.hooks);
    await k.client.generate({ messages: USER }, k.hooks);
    await k.client.generate({ messages: USER }, k.hooks);
    expect(k.starts.map((s) => s.callNumber)).toEqual([1, 2, 3]);
    expect(k.ends.map((e) => e.callNumber)).toEqual([1, 2, 3]);
    expect(k.client.llmCallCount).toBe(3);
  });

  it('sends the profile model, temperature, parallel_tool_calls and extra headers; the key as Bearer', async () => {
    const k = await kit(
      { script: [{ text: 'ok' }, { text: 'ok' }] },
      { profile: { temperature: 0.2, parallelToolCalls: false, extraHeaders: { 'x-maestro-test': 'yes' } } },
    );
    await k.client.generate({ messages: USER, tools: TOOLS });
    await k.client.generate({ messages: USER, temperature: 0.9 });
    const [a, b] = k.server.requests;
    expect(a?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(a?.headers['x-maestro-test']).toBe('yes');
    expect(a?.body).toMatchObject({ model: 'scripted', temperature: 0.2, parallel_tool_calls: false, stream: true });
    expect(b?.body?.temperature).toBe(0.9);
    expect(b?.body && 'parallel_tool_calls' in b.body).toBe(false);
    expect(b?.body && 'tools' in b.body).toBe(false);
  });

  it('a backend without usage reports leaves usage null and logs it as unreported', async () => {
    const k = await kit({ script: [{ text: 'ok', usage: null }] });
    const result = await k.client.generate({ messages: USER });
    expect(result.calls[0]?.usage).toBeNull();
    expect(result.usage).toEqual({ promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0 });
    expect(k.logs[0]).toMatch(/^prompt_cache reused=0 prompt=0 pct=0 .*usage=unreported$/);
  });
});

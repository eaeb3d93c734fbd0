// Every shape of the provider corpus through the real openai SDK and LlmClient: the assembled LlmResult and the
// live deltas.
import { describe, expect, it } from 'vitest';
import { kit, USER } from '../../test-support/llm-kit';
import { PROVIDER_SHAPES, type ProviderShape } from '../../test-support/provider-shapes';
import { openai } from '../../test-support/provider-shapes/openai';
import type { ScriptEntry } from '../../test-support/scripted-llm-server';
import { isLlmError } from './errors';
import type { LlmDelta, ToolSpec } from './types';

const TOOLS: ToolSpec[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'The weather in a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
];

function script(shape: ProviderShape): ScriptEntry[] {
  const last = shape.replies.at(-1);
  return shape.repeat && last ? [...shape.replies, ...Array<ScriptEntry>(4).fill(last)] : [...shape.replies];
}

/** The live tool-call deltas put together per index, as the UI does. */
function liveCalls(deltas: LlmDelta[]) {
  const calls = new Map<number, { id?: string; name?: string; arguments: string }>();
  for (const d of deltas) {
    if (d.type !== 'tool_call') continue;
    const call = calls.get(d.index) ?? { arguments: '' };
    if (d.id) call.id = d.id;
    if (d.name) call.name = d.name;
    call.arguments += d.argumentsDelta;
    calls.set(d.index, call);
  }
  return [...calls.entries()].sort(([a], [b]) => a - b);
}

const joined = (deltas: LlmDelta[], type: 'text' | 'reasoning') =>
  deltas
    .filter((d) => d.type === type)
    .map((d) => (d.type === type ? d.text : ''))
    .join('');

describe('provider corpus through LlmClient', () => {
  it.each(PROVIDER_SHAPES.map((s) => [s.name, s] as const))('%s', async (_name, shape) => {
    const k = await kit({ script: script(shape) }, { retry: { maxRetries: 1 } });
    const perCall: LlmDelta[][] = [];
    const pending = k.client.generate(
      { messages: USER, tools: TOOLS },
      { onLlmCallStart: () => perCall.push([]), onDelta: (d) => perCall.at(-1)?.push(d) },
    );
    const expected = shape.expect;
    if (!expected.ok) {
      const err = await pending.then(
        () => undefined,
        (e: unknown) => e,
      );
      if (!isLlmError(err)) throw new Error(`expected an LlmError, got ${String(err)}`);
      expect(err.kind).toBe(expected.kind);
      expect(err.message).toMatch(expected.message);
      expect(k.server.requests).toHaveLength(expected.kind === 'retries_exhausted' ? 2 : 1);
      return;
    }
    const result = await pending;
    expect(result.text).toBe(expected.text);
    expect(result.reasoning).toBe(expected.reasoning);
    expect(result.reasoningDetails).toEqual(expected.reasoningDetails);
    expect(result.extra).toEqual(expected.extra);
    expect(result.finishReason).toBe(expected.finishReason);
    expect(result.usage).toEqual(expected.usage);
    expect(result.calls).toHaveLength(expected.llmCalls);
    expect(
      result.toolCalls.map((c) => ({
        ...(expected.toolCalls.some((e) => e.id) ? { id: c.id } : {}),
        name: c.name,
        arguments: JSON.parse(c.arguments),
        ...(c.extra !== undefined ? { extra: c.extra } : {}),
      })),
    ).toEqual(expected.toolCalls);
    expect(new Set(result.toolCalls.map((c) => c.id)).size).toBe(result.toolCalls.length);
    // The live deltas of the successful LlmCall add up to the result, one stable index per call.
    const live = perCall.at(-1) ?? [];
    expect(joined(live, 'text')).toBe(expected.text);
    expect(joined(live, 'reasoning')).toBe(expected.reasoning);
    const calls = liveCalls(live);
    expect(calls.map(([index]) => index)).toEqual(result.toolCalls.map((_, i) => i));
    expect(calls.map(([, c]) => ({ id: c.id, name: c.name, arguments: c.arguments }))).toEqual(
      result.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })),
    );
    k.server.expectEmpty();
  });

  it('keeps completion_tokens_details.reasoning_tokens on the LlmCall record', async () => {
    const k = await kit({ script: script(openai) });
    const result = await k.client.generate({ messages: USER, tools: TOOLS }, k.hooks);
    expect(result.calls[0]?.usage).toEqual({
      promptTokens: 1200,
      completionTokens: 80,
      cachedPromptTokens: 1024,
      reasoningTokens: 64,
    });
    expect(k.logs[0]).toMatch(/^prompt_cache reused=1024 prompt=1200 pct=85 /);
  });
});

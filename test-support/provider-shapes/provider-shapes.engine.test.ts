// Every shape of the provider corpus through the Worker: a task whose model makes the shape's tool call, then
// completes, reaches its outcome — succeeded, or failing with the server's own message for the error shapes — and the
// request after the call carries back what that kind of server needs (reasoning, signatures), and nothing else.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PROVIDER_QUIRKS } from '../../src-main/llm/provider-kinds';
import type { AnyToolDef } from '../../src-main/tools/types';
import type { ProviderKind } from '../../src-shared/contract/profiles';
import { complete, engineHarness, SETTLED } from '../engine-harness';
import type { ScriptEntry } from '../scripted-llm-server';
import { PROVIDER_SHAPES, type ProviderShape, type ShapeOutcome, WEATHER_TOOL } from '.';

function weather(seen: string[]): AnyToolDef {
  return {
    name: WEATHER_TOOL,
    description: 'The weather in a city.',
    parameters: z.object({ city: z.string() }),
    readOnly: true,
    async execute({ city }: { city: string }) {
      seen.push(city);
      return { kind: 'result', ok: true, content: `Sunny in ${city}.` };
    },
  };
}

function script(shape: ProviderShape): ScriptEntry[] {
  const last = shape.replies.at(-1);
  // Enough copies of a repeated fault for every LlmCall the retries make; the rest stays unplayed.
  if (shape.repeat && last) return [...shape.replies, ...Array<ScriptEntry>(12).fill(last)];
  return [...shape.replies, complete('Reported the weather.')];
}

/** What these servers reject the next request without (issue 12; their docs are cited in provider-kinds.ts). */
const REQUIRED_BACK: Partial<Record<ProviderKind, string>> = {
  deepseek: 'reasoning_content',
  moonshot: 'reasoning_content',
  gemini: 'extra_content',
  openrouter: 'reasoning_details',
};

type Sent = { role: string; tool_calls?: Record<string, unknown>[] } & Record<string, unknown>;

/** The request after the tool call carries back what the kind needs of the model's reply, byte for byte, and no more. */
function expectSentBack(kind: ProviderKind, expected: Extract<ShapeOutcome, { ok: true }>, messages: unknown[]) {
  const reply = (messages as Sent[]).findLast((m) => m.role === 'assistant' && m.tool_calls);
  expect(reply, 'the assistant message with the tool call').toBeDefined();
  const back = PROVIDER_QUIRKS[kind].sendBack;
  const want = {
    reasoning_content:
      back.includes('reasoning_content_on_tool_turns') && expected.reasoning ? expected.reasoning : undefined,
    reasoning_details: back.includes('reasoning_details') ? expected.reasoningDetails : undefined,
    extra_content: back.includes('extra_content') ? expected.extra : undefined,
  };
  for (const [field, value] of Object.entries(want)) expect(reply?.[field], field).toEqual(value);
  const required = REQUIRED_BACK[kind];
  if (required) expect(reply?.[required], `${kind} needs ${required} back`).toBeDefined();
  const callExtras = reply?.tool_calls?.map((c) => c.extra_content);
  const wantCallExtras = expected.toolCalls.map((c) => (back.includes('extra_content') ? c.extra : undefined));
  expect(callExtras).toEqual(wantCallExtras);
}

describe('provider corpus through the Worker', () => {
  it.each(PROVIDER_SHAPES.map((s) => [s.name, s] as const))('%s', async (_name, shape) => {
    const seen: string[] = [];
    const kind = shape.kind ?? 'generic';
    const h = await engineHarness(script(shape), { tools: [weather(seen)], kind });
    const { jobId } = h.createTask('What is the weather?');
    const job = await h.waitFor(jobId, SETTLED, 15_000);
    const expected = shape.expect;
    if (expected.ok) {
      expect(job.status).toBe('succeeded');
      expect(seen).toEqual(expected.toolCalls.map((c) => c.arguments.city));
      expectSentBack(kind, expected, h.server.requests[shape.replies.length]?.body?.messages ?? []);
      return;
    }
    expect(job.status).toBe(expected.kind === 'terminal' ? 'failed' : 'retry');
    expect(job.error).toMatch(expected.message);
  });
});

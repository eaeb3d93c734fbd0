// Every shape of the provider corpus through the Worker: a task whose model makes the shape's tool call, then
// completes, reaches its outcome — succeeded, or failing with the server's own message for the error shapes.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AnyToolDef } from '../../src-main/tools/types';
import { complete, engineHarness, SETTLED } from '../engine-harness';
import type { ScriptEntry } from '../scripted-llm-server';
import { PROVIDER_SHAPES, type ProviderShape, WEATHER_TOOL } from '.';

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

describe('provider corpus through the Worker', () => {
  it.each(PROVIDER_SHAPES.map((s) => [s.name, s] as const))('%s', async (_name, shape) => {
    const seen: string[] = [];
    const h = await engineHarness(script(shape), { tools: [weather(seen)] });
    const { jobId } = h.createTask('What is the weather?');
    const job = await h.waitFor(jobId, SETTLED, 15_000);
    const expected = shape.expect;
    if (expected.ok) {
      expect(job.status).toBe('succeeded');
      expect(seen).toEqual(expected.toolCalls.map((c) => c.arguments.city));
      return;
    }
    expect(job.status).toBe(expected.kind === 'terminal' ? 'failed' : 'retry');
    expect(job.error).toMatch(expected.message);
  });
});

// Issue 21, point 9, through the Worker and the real agent loop: a generic profile pointed at a server that behaves
// like DeepSeek, Kimi or Gemini (streams reasoning or thought signatures with a tool call, answers 400 with its own
// words when the next request lacks them) — the job succeeds, the profile remembers, and a later job and a Continue
// send the field from the start: the server refuses nothing the second time.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { complete, engineHarness, SETTLED } from '../../test-support/engine-harness';
import { WEATHER_TOOL } from '../../test-support/provider-shapes';
import { PROVIDER_REFUSALS } from '../../test-support/provider-shapes/refusals';
import { startScriptedLlmServer } from '../../test-support/scripted-llm-server';
import type { AnyToolDef } from '../tools/types';
import { PROFILES_FILE } from './profile-store';

const weather: AnyToolDef = {
  name: WEATHER_TOOL,
  description: 'The weather in a city.',
  parameters: z.object({ city: z.string() }),
  readOnly: true,
  async execute({ city }: { city: string }) {
    return { kind: 'result', ok: true, content: `Sunny in ${city}.` };
  },
};

describe('P4.20 P4.23 P9.11 reasoning goes back whatever the kind (generic profile)', () => {
  it.each(PROVIDER_REFUSALS.map((p) => [p.name, p] as const))('%s', async (_name, provider) => {
    const refused: number[] = [];
    const server = await startScriptedLlmServer({
      script: [
        ...provider.shape.replies,
        complete('First.'),
        ...provider.shape.replies,
        complete('Second.'),
        complete('Continued.'),
      ],
      refuse: (request) => {
        const refusal = provider.refuse(request);
        if (refusal) refused.push(request.index);
        return refusal;
      },
    });
    try {
      const h = await engineHarness([], { tools: [weather], server });
      h.maestro.invoke('saveProfile', { name: 'g', kind: 'generic', baseURL: server.baseURL, model: 'scripted' });

      // The first job: the request after the tool call is refused once, then sent again with the field.
      const first = h.createTask('What is the weather?', { profile: 'g' });
      const job1 = await h.waitFor(first.jobId, SETTLED, 15_000);
      expect(job1.status, job1.error ?? '').toBe('succeeded');
      expect(refused).toEqual([1]);
      expect(server.requests.slice(0, 3).map((r) => provider.refuse(r) === undefined)).toEqual([true, false, true]);
      const view = h.maestro.invoke('listProfiles', {}).profiles.find((p) => p.name === 'g');
      expect(view?.kind).toBe('generic');
      expect(view?.sendBack?.length).toBe(1);
      const file = JSON.parse(fs.readFileSync(path.join(h.dataDir, PROFILES_FILE), 'utf8'));
      expect(file.profiles[0].sendBack).toEqual(view?.sendBack);

      // A later job of the profile sends it from the start.
      const second = h.createTask('And now?', { profile: 'g' });
      expect((await h.waitFor(second.jobId, SETTLED, 15_000)).status).toBe('succeeded');
      expect(server.requests).toHaveLength(5);
      expect(refused).toEqual([1]);

      // A Continue replays the first task's conversation from its transcript: the field goes back with it.
      const { job } = h.maestro.invoke('continueTask', { taskId: first.taskId, instruction: 'Thanks.' });
      expect((await h.waitFor(job.id, SETTLED, 15_000)).status).toBe('succeeded');
      const replayed = server.requests.at(-1);
      expect(replayed?.rawBody).toContain('Thanks.');
      expect(replayed?.body?.messages?.some((m) => (m as { tool_calls?: unknown[] }).tool_calls?.length)).toBe(true);
      expect(refused).toEqual([1]);
      server.expectEmpty();
    } finally {
      await server.close();
    }
  });

  it('the same server without the refusal: a generic profile sends nothing it was not asked for', async () => {
    const [deepseek] = PROVIDER_REFUSALS;
    if (!deepseek) throw new Error('no provider');
    const h = await engineHarness([...deepseek.shape.replies, complete('Done.')], { tools: [weather] });
    const { jobId } = h.createTask('What is the weather?');
    expect((await h.waitFor(jobId, SETTLED, 15_000)).status).toBe('succeeded');
    expect(h.server.requests[1]?.rawBody).not.toContain('reasoning_content');
    expect(h.maestro.invoke('listProfiles', {}).profiles[0]?.sendBack).toBeUndefined();
  });
});

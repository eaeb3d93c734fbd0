// The context windows a server's model list states (issue 23 point 8), read through the real openai SDK from the
// scripted server: each field name servers use, never a guess, the profile's own window where the list says none or
// cannot be read, and the list asked once while the profile is unchanged.
import { afterEach, describe, expect, it } from 'vitest';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../../test-support/scripted-llm-server';
import { contextWindowOf } from './context-window';
import { ContextWindows } from './context-windows';
import { type LlmProfile, ProfileRegistry } from './profiles';

const servers: ScriptedLlmServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

const profile = (baseURL: string, extra: Partial<LlmProfile> = {}): LlmProfile => ({
  name: 'p',
  baseURL,
  model: 'm',
  apiKey: '',
  ...extra,
});

describe('context windows', () => {
  it('reads the fields servers use, and only positive whole numbers', () => {
    expect(contextWindowOf({ id: 'a', context_length: 200_000 })).toBe(200_000); // OpenRouter, Moonshot
    expect(contextWindowOf({ id: 'a', context_window: 131_072 })).toBe(131_072); // Groq
    expect(contextWindowOf({ id: 'a', max_model_len: 32_768 })).toBe(32_768); // vLLM
    for (const bad of [0, -1, 1.5, '8192', null, Number.NaN])
      expect(contextWindowOf({ context_length: bad })).toBeUndefined();
    expect(contextWindowOf({ id: 'gpt-4o-128k' })).toBeUndefined(); // never from a name
    expect(contextWindowOf(null)).toBeUndefined();
  });

  it("the server's list first, asked once while the profile is unchanged; else the profile's own window", async () => {
    const server = await startScriptedLlmServer({
      models: ['m', 'other'],
      modelFields: { m: { context_length: 65_536 } },
    });
    servers.push(server);
    const registry = new ProfileRegistry([profile(server.baseURL, { contextWindow: 4096 })]);
    const windows = new ContextWindows(registry);
    expect(await windows.of('p', 'm')).toEqual({ contextWindow: 65_536, source: 'server' });
    expect(await windows.of('p', 'm')).toEqual({ contextWindow: 65_536, source: 'server' });
    expect(server.modelListRequests).toHaveLength(1);
    // Listed without a window, and not the profile's model: unknown, not the profile's window for another model.
    expect(await windows.of('p', 'other')).toBeUndefined();
    expect(await windows.of('nobody', 'm')).toBeUndefined();
  });

  it("a list that cannot be read leaves the profile's own window, and is not asked again at once", async () => {
    let now = 1_000_000;
    let asked = 0;
    const registry = new ProfileRegistry([profile('http://127.0.0.1:1/v1', { contextWindow: 4096 })]);
    const windows = new ContextWindows(
      registry,
      async () => {
        asked++;
        return { ok: false, models: [], error: 'cannot reach the backend' };
      },
      () => now,
    );
    expect(await windows.of('p', 'm')).toEqual({ contextWindow: 4096, source: 'profile' });
    await windows.of('p', 'm');
    expect(asked).toBe(1);
    now += 61_000;
    await windows.of('p', 'm');
    expect(asked).toBe(2);
  });
});

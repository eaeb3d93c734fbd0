// Test support for the LLM layer: a client of a profile pointing at a scripted LLM server, with its log and hooks.
import { afterEach } from 'vitest';
import { LlmClient, type LlmClientOptions } from '../src-main/llm/client';
import { isLlmError, type LlmError } from '../src-main/llm/errors';
import type { LlmProfile } from '../src-main/llm/profiles';
import type { LlmCallRecord, LlmCallStartInfo, LlmDelta, LlmHooks } from '../src-main/llm/types';
import { type ScriptedLlmServer, type ScriptedLlmServerOptions, startScriptedLlmServer } from './scripted-llm-server';

export const API_KEY = 'sk-test-SECRET-0123456789abcdef';

const servers: ScriptedLlmServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

export interface Kit {
  server: ScriptedLlmServer;
  client: LlmClient;
  profile: LlmProfile;
  logs: string[];
  starts: LlmCallStartInfo[];
  ends: LlmCallRecord[];
  deltas: LlmDelta[];
  hooks: LlmHooks;
}

export async function kit(
  server: ScriptedLlmServerOptions = {},
  options: Partial<Omit<LlmClientOptions, 'profile'>> & { profile?: Partial<LlmProfile> } = {},
): Promise<Kit> {
  const s = await startScriptedLlmServer({ apiKey: API_KEY, ...server });
  servers.push(s);
  const profile: LlmProfile = {
    name: 'test',
    baseURL: s.baseURL,
    model: 'scripted',
    apiKey: API_KEY,
    ...options.profile,
  };
  const logs: string[] = [];
  const starts: LlmCallStartInfo[] = [];
  const ends: LlmCallRecord[] = [];
  const deltas: LlmDelta[] = [];
  const client = new LlmClient({
    log: (line) => logs.push(line),
    random: () => 0.5,
    ...options,
    retry: { baseDelayMs: 5, ...options.retry },
    profile,
  });
  const hooks: LlmHooks = {
    onLlmCallStart: (i) => starts.push(i),
    onLlmCallEnd: (r) => ends.push(r),
    onDelta: (d) => deltas.push(d),
  };
  return { server: s, client, profile, logs, starts, ends, deltas, hooks };
}

export const USER = [
  { role: 'system' as const, content: 'You are a scripted test agent.' },
  { role: 'user' as const, content: 'Say hello.' },
];

/** The LlmError a generation fails with (the test fails when it does not fail so). */
export async function failure(p: Promise<unknown>): Promise<LlmError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isLlmError(err)) throw new Error(`expected an LlmError, got ${String(err)}`);
  return err;
}

// The project's scripted OpenAI-compatible server (test-support/scripted-llm-server.ts), loaded at run time.
// tsconfig.e2e.json does not include test-support/, so the few parts the specs use are restated here as types; the
// server itself is the real one, streaming over HTTP SSE to the host's `openai` SDK.
import path from 'node:path';
import { APP_ROOT } from './headless-host';

const MODULE = path.join(APP_ROOT, 'test-support', 'scripted-llm-server.ts');

/** A subset of test-support's ScriptedReply: streamed reasoning, text and tool calls, paced by chunkDelayMs. */
export interface ScriptedStep {
  text?: string;
  reasoning?: string;
  toolCalls?: { name: string; arguments: Record<string, unknown> | string; id?: string }[];
  /** Wait before answering at all. */
  delayMs?: number;
  /** Wait between SSE chunks (the text is sent in three). */
  chunkDelayMs?: number;
}

/** test-support's `cut` fault: two of three chunks of `text`, then the socket is destroyed (no finish, no [DONE]). */
export interface ScriptedCut {
  fault: 'cut';
  text?: string;
  delayMs?: number;
  chunkDelayMs?: number;
}

export interface ScriptedLlm {
  readonly baseURL: string;
  readonly requests: readonly { index: number; body: { model?: string; messages?: unknown[] } | null }[];
  push(...steps: (ScriptedStep | ScriptedCut)[]): void;
  readonly remaining: number;
  /** Throws when steps are left or a request arrived with none left. */
  expectEmpty(): void;
  close(): Promise<void>;
}

export async function startScriptedLlm(options: { apiKey?: string } = {}): Promise<ScriptedLlm> {
  // Playwright's loader compiles the TypeScript module on require.
  const loaded = require(MODULE) as { startScriptedLlmServer(o: { apiKey?: string }): Promise<ScriptedLlm> };
  return loaded.startScriptedLlmServer(options);
}

// Playwright fixtures: `host` is a fresh headless host per test without an LLM (jobs stay queued); `llm` is the
// project's scripted OpenAI-compatible server, and `llmHost` a fresh host whose default LLM profile points at it.
// Each is stopped and its temp dirs removed afterwards.
import { test as base, type TestInfo } from '@playwright/test';
import { type ScriptedLlmServer as ScriptedLlm, startScriptedLlmServer } from '../../test-support/scripted-llm-server';
import { type HeadlessHost, startHeadlessHost } from './headless-host';

export const LLM_API_KEY = 'sk-e2e-scripted';
export const LLM_MODEL = 'scripted-e2e';

async function useHost(env: NodeJS.ProcessEnv, use: (host: HeadlessHost) => Promise<void>, testInfo: TestInfo) {
  const host = await startHeadlessHost(env);
  try {
    await use(host);
  } finally {
    if (testInfo.status !== testInfo.expectedStatus) {
      await testInfo.attach('headless-host.log', { body: host.output(), contentType: 'text/plain' });
    }
    await host.stop();
  }
}

export const test = base.extend<{ host: HeadlessHost; llm: ScriptedLlm; llmHost: HeadlessHost }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixture's dependencies from this pattern.
  host: async ({}, use, testInfo) => {
    await useHost({}, use, testInfo);
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixture's dependencies from this pattern.
  llm: async ({}, use) => {
    // Empty at first: a test pushes its script before it starts the job.
    const server = await startScriptedLlmServer({ apiKey: LLM_API_KEY });
    try {
      await use(server);
    } finally {
      await server.close();
    }
  },
  llmHost: async ({ llm }, use, testInfo) => {
    const env = { MAESTRO_LLM_BASE_URL: llm.baseURL, MAESTRO_LLM_MODEL: LLM_MODEL, MAESTRO_LLM_API_KEY: LLM_API_KEY };
    await useHost(env, use, testInfo);
  },
});

export { expect } from '@playwright/test';

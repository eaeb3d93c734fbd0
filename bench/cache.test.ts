import { describe, expect, it } from 'vitest';
import { startScriptedLlmServer } from '../test-support/scripted-llm-server';
import { measureCache, SCRIPT } from './cache';

describe('bench/cache', () => {
  it('P5.21 reports the cached share right after a transition and right after a Continue (scripted backend)', async () => {
    const server = await startScriptedLlmServer({ script: SCRIPT });
    try {
      const { calls, afterTransition, afterContinue } = await measureCache({
        MAESTRO_LLM_BASE_URL: server.baseURL,
        MAESTRO_LLM_MODEL: 'scripted',
      });
      server.expectEmpty();
      expect(calls.map((c) => c.n)).toEqual([1, 2, 3, 4]);
      expect(afterTransition?.n).toBe(3);
      expect(afterContinue?.n).toBe(4);
      expect(afterContinue?.jobId).not.toBe(calls[0]?.jobId);
      // The scripted server counts the prefix shared with the previous request: the layout keeps nearly all of it,
      // across the movement change and across the Continue's new job.
      for (const c of [afterTransition, afterContinue]) {
        const previous = calls[(c?.n ?? 0) - 2];
        expect(c?.cachedPromptTokens).toBeGreaterThan(0.95 * (previous?.promptTokens ?? Number.POSITIVE_INFINITY));
      }
    } finally {
      await server.close();
    }
  });
});

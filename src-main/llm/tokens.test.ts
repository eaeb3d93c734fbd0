// The prompt size estimate and the client-side context guard (P4.19).
import { describe, expect, it } from 'vitest';
import { checkTokenLimit, estimatePromptTokens, estimateTokens } from './tokens';

describe('token estimate', () => {
  it('counts ~4 ASCII characters per token and one per other character', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
    expect(estimateTokens('日本語')).toBe(3);
    expect(estimateTokens('😀')).toBe(1);
  });

  it('covers messages and tools', () => {
    const messages = [{ role: 'user' as const, content: 'x'.repeat(400) }];
    const tools = [
      { type: 'function' as const, function: { name: 't', description: 'd'.repeat(400), parameters: {} } },
    ];
    expect(estimatePromptTokens(messages)).toBeGreaterThanOrEqual(100);
    expect(estimatePromptTokens(messages, tools)).toBeGreaterThanOrEqual(200);
  });

  it('P4.19 checkTokenLimit throws context_overflow when prompt + reserve exceed the window', () => {
    const messages = [{ role: 'user' as const, content: 'x'.repeat(4000) }];
    expect(checkTokenLimit(messages, [], 2000, 500)).toBeGreaterThan(1000);
    expect(() => checkTokenLimit(messages, [], 1200, 500)).toThrow(
      expect.objectContaining({ name: 'LlmError', kind: 'context_overflow', contextWindow: 1200 }),
    );
  });
});

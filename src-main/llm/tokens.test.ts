// The prompt size estimate and the client-side context guard (P4.19).
import { describe, expect, it } from 'vitest';
import {
  bpeCounter,
  checkTokenLimit,
  encodingForModel,
  estimatePromptTokens,
  estimateTokens,
  heuristicTokens,
  tokenCounterFor,
} from './tokens';

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

describe('the model family tokenizer', () => {
  it('picks cl100k_base for the older OpenAI chat models and o200k_base for everything else', () => {
    expect(encodingForModel('gpt-4')).toBe('cl100k_base');
    expect(encodingForModel('gpt-4-turbo')).toBe('cl100k_base');
    expect(encodingForModel('openai/gpt-3.5-turbo')).toBe('cl100k_base');
    expect(encodingForModel('gpt-4o-mini')).toBe('o200k_base');
    expect(encodingForModel('gpt-4.1')).toBe('o200k_base');
    expect(encodingForModel('o3-mini')).toBe('o200k_base');
    expect(encodingForModel('qwen2.5-coder:7b')).toBe('o200k_base');
  });

  it('counts real BPE tokens, not characters', () => {
    const o200k = tokenCounterFor('gpt-4o');
    expect(o200k.encoding).toBe('o200k_base');
    expect(o200k.count('hello world')).toBe(2);
    const cl100k = tokenCounterFor('gpt-4');
    expect(cl100k.encoding).toBe('cl100k_base');
    // Japanese: the heuristic's one token per character is far from either vocabulary's count, and they differ.
    const ja = 'タスクを作成し、ワークスペースのファイルを読んでから、テストを実行してください。';
    expect(o200k.count(ja)).toBeLessThan(estimateTokens(ja));
    expect(cl100k.count(ja)).not.toBe(o200k.count(ja));
    // A repeated ASCII run is a few long tokens, where the heuristic says one per four characters.
    expect(o200k.count('='.repeat(400))).toBeLessThan(estimateTokens('='.repeat(400)));
  });

  it('counts text that looks like a special token as text instead of throwing', () => {
    expect(tokenCounterFor('gpt-4o').count('before <|endoftext|> after')).toBeGreaterThan(4);
  });

  it('measures each message object once and sums messages and tools with the counter', () => {
    const counter = tokenCounterFor('gpt-4o');
    const message = { role: 'user' as const, content: 'Read README.md and summarize it.' };
    expect(estimatePromptTokens([message, message], [], counter)).toBe(2 * counter.count(JSON.stringify(message)));
  });

  it('falls back to the character heuristic, saying why, when the tokenizer cannot be loaded', () => {
    const said: string[] = [];
    const counter = bpeCounter(
      'o200k_base',
      (why) => said.push(why),
      () => {
        throw new Error('Cannot find module gpt-tokenizer');
      },
    );
    expect(counter).toBe(heuristicTokens);
    expect(counter.count('abcd')).toBe(1);
    expect(said).toEqual([expect.stringContaining('tokenizer o200k_base unavailable')]);
  });

  it('P4.19 the client-side check uses the model family tokenizer and names it', () => {
    const counter = tokenCounterFor('gpt-4o');
    const messages = [{ role: 'user' as const, content: 'word '.repeat(1000) }];
    const tokens = checkTokenLimit(messages, [], 10_000, 500, counter);
    expect(tokens).toBe(counter.count(JSON.stringify(messages[0])));
    expect(() => checkTokenLimit(messages, [], tokens + 499, 500, counter)).toThrow(/\(o200k_base\)/);
  });
});

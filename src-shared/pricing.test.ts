import { describe, expect, it } from 'vitest';
import { PRESET_PRICES } from './preset-prices';
import { CostSum, callCostPicos, formatUsd, picosToUsd, pricesFor } from './pricing';

const gpt = { input: 2.5, cachedInput: 0.25, output: 15 };

describe('pricing (issue 23 point 8)', () => {
  it('prices cached prompt tokens at the cached price, the rest of the prompt at input, completion at output', () => {
    // 1,000 prompt tokens of which 600 cached, 200 completion: 400×2.5 + 600×0.25 + 200×15 micro-dollars.
    const picos = callCostPicos(gpt, { promptTokens: 1000, cachedPromptTokens: 600, completionTokens: 200 });
    expect(picosToUsd(picos)).toBe((400 * 2.5 + 600 * 0.25 + 200 * 15) / 1e6);
    // Without a cached price, cached tokens are input: no discount is invented.
    const flat = callCostPicos(
      { input: 2.5, output: 15 },
      { promptTokens: 1000, cachedPromptTokens: 600, completionTokens: 0 },
    );
    expect(picosToUsd(flat)).toBe(0.0025);
  });

  it('sums exactly where floats drift: ten thousand calls at $0.1 per million sum to the cent', () => {
    const sum = new CostSum();
    let floats = 0;
    for (let i = 0; i < 10_000; i++) {
      sum.add({ input: 0.1, output: 0.2 }, { promptTokens: 1, cachedPromptTokens: 0, completionTokens: 1 });
      floats += 0.1 / 1e6 + 0.2 / 1e6;
    }
    expect(sum.usd).toBe(0.003);
    expect(floats).not.toBe(0.003); // what summing floats would have shown
  });

  it('a sum with one unpriced call is unknown, never a smaller figure; a call of no tokens costs nothing', () => {
    const sum = new CostSum().add(gpt, { promptTokens: 10, cachedPromptTokens: 0, completionTokens: 10 });
    expect(sum.usd).toBeGreaterThan(0);
    sum.add(null, { promptTokens: 0, cachedPromptTokens: 0, completionTokens: 0 });
    expect(sum.usd).toBeGreaterThan(0);
    sum.add(null, { promptTokens: 5, cachedPromptTokens: 0, completionTokens: 0 });
    expect(sum.usd).toBeNull();
  });

  it("finds the profile's own price for its model, else the preset of its kind, else none", () => {
    const own = { kind: 'generic' as const, baseURL: 'http://127.0.0.1:1/v1', model: 'm', prices: gpt };
    expect(pricesFor(own, 'm')).toEqual(gpt);
    // The profile's prices are for its model only: another model of the same server is not priced by them.
    expect(pricesFor(own, 'other')).toBeNull();
    const openai = { kind: 'generic' as const, baseURL: 'https://api.openai.com/v1', model: 'gpt-5.4' };
    expect(pricesFor(openai, 'gpt-5.4')).toEqual(PRESET_PRICES.openai?.models['gpt-5.4']);
    // A model the table does not know: no price, not $0.
    expect(pricesFor(openai, 'gpt-unknown')).toBeNull();
    expect(pricesFor(undefined, 'gpt-5.4')).toBeNull();
  });

  it('every preset table names its source and the day it was checked', () => {
    for (const [kind, table] of Object.entries(PRESET_PRICES)) {
      expect(table?.source, kind).toMatch(/^https:\/\//);
      expect(table?.checked, kind).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(Object.keys(table?.models ?? {}).length, kind).toBeGreaterThan(0);
    }
  });

  it('rounds for people: cents from a cent up, two significant digits below, never $0.00 for a cost', () => {
    expect(formatUsd(12.345, 'en-US')).toBe('$12.35');
    expect(formatUsd(0.01, 'en-US')).toBe('$0.01');
    expect(formatUsd(0.004216, 'en-US')).toBe('$0.0042');
    expect(formatUsd(0.00000012, 'en-US')).toBe('$0.00000012');
    expect(formatUsd(0, 'en-US')).toBe('$0.00');
    expect(formatUsd(1234.5, 'ja-JP')).toBe('$1,234.50');
  });
});

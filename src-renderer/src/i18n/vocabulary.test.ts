// P9.24: the UI's words for conversation units (the usage panel, Invoke headers, the live stream, the log's rows)
// never call an Invoke, Turn or LlmCall a "run" or a "request", in either language. The stored kinds and event names
// are checked in src-main/db/repos/vocabulary.test.ts.
import { describe, expect, it } from 'vitest';
import { en } from './en';
import { ja } from './ja';

const unitLabels = (dict: Record<string, string>) =>
  Object.entries(dict).filter(([key]) => /^(usage\.|invoke\.|stream\.|activity\.(invoke|llmCall))/.test(key));

describe('P9.24 the vocabulary of the conversation log in the UI', () => {
  it('P9.24 no unit is called a "run" or a "request" (English and Japanese)', () => {
    expect(unitLabels(en).length).toBeGreaterThan(10);
    for (const [key, text] of unitLabels(en)) expect(`${key}: ${text}`).not.toMatch(/\b(runs?|requests?)\b/i);
    for (const [key, text] of unitLabels(ja)) expect(`${key}: ${text}`).not.toMatch(/ラン|リクエスト/);
  });
});

// P9.24: the UI's words for conversation units (the usage panel, Invoke headers, the live stream, the log's rows)
// never call an Invoke, Turn or LlmCall a "run" or a "request", in either language; and (issue 23 point 6) no text a
// person reads outside the Activity tab uses the spec's internal names — Movement, Piece, LlmCall, handoff, Job,
// Invoke — but the UI's words for them (README, "Words on screen"). The stored kinds and event names are checked in
// src-main/db/repos/vocabulary.test.ts.
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

/** The spec's internal names as they would read in English and in Japanese (引き継ぐ, "carry over", is plain Japanese). */
const INTERNAL_EN = /\b(movements?|pieces?|llm ?calls?|llmcalls?|handoffs?|jobs?|invokes?)\b/i;
const INTERNAL_JA =
  /ムーブメント|ピース|ジョブ|ハンドオフ|インボーク|LLM ?呼び出し|movement|piece|llm ?call|handoff|\bjob|invoke/i;

/** Every text a person reads outside the Activity tab (which keeps the spec's terms), placeholders left out. */
const personFacing = (dict: Record<string, string>) =>
  Object.entries(dict)
    .filter(([key]) => !key.startsWith('activity.'))
    .map(([key, text]) => [key, text.replace(/\{\w+\}/g, '')] as const);

describe("issue 23 point 6: the person's words, not the spec's internal names", () => {
  it('the check catches the words it is about (the texts shown before, in both languages)', () => {
    for (const old of ['Comment sent: a new job starts.', 'Movement work', 'piece default', 'Usage per Invoke']) {
      expect(old).toMatch(INTERNAL_EN);
    }
    expect('{count} LLM calls (retried)').toMatch(INTERNAL_EN);
    for (const old of ['新しいジョブを開始します', 'ムーブメント', 'デフォルトのピース', 'LLM 呼び出し 3 回']) {
      expect(old).toMatch(INTERNAL_JA);
    }
  });

  it('no English text outside the Activity tab names a movement, piece, LLM call, handoff, job or Invoke', () => {
    const found = personFacing(en).filter(([, text]) => INTERNAL_EN.test(text));
    expect(found).toEqual([]);
  });

  it('no Japanese text outside the Activity tab does either', () => {
    const found = personFacing(ja).filter(([, text]) => INTERNAL_JA.test(text));
    expect(found).toEqual([]);
  });

  it('the Activity tab keeps the spec vocabulary (movement, LLM call, job), in both languages', () => {
    expect(en['activity.movement']).toMatch(/Movement/);
    expect(en['activity.llmCall']).toMatch(/LLM call/);
    expect(en['activity.kind.job']).toMatch(/Job/);
    expect(ja['activity.movement']).toMatch(INTERNAL_JA);
  });
});

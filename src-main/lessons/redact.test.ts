// P2.08: what a lesson keeps has no secret in it — a key this host knows wherever it appears, and the shapes of keys
// and tokens it does not know — while ordinary words about keys and tokens stay as they were.
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './redact';
import { parseReflection } from './reflection';

describe('P2.08 redaction before a lesson is stored', () => {
  it('P2.08 masks known secrets and key shapes', () => {
    const known = ['my-own-key-123'];
    const cases: [string, string][] = [
      ['use my-own-key-123 here', 'use [redacted] here'],
      [`export OPENAI_API_KEY=sk-${'A'.repeat(30)}`, 'export OPENAI_API_KEY=[redacted]'],
      [`curl -H "Authorization: Bearer ${'x'.repeat(24)}"`, 'curl -H "Authorization: [redacted]"'],
      [`push with ghp_${'a'.repeat(36)}`, 'push with [redacted]'],
      ['aws AKIAABCDEFGHIJKLMNOP key', 'aws [redacted] key'],
      ['"password": "hunter2hunter2"', '"password": "[redacted]"'],
      ['-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----', '[redacted]'],
    ];
    for (const [text, want] of cases) expect(redactSecrets(text, known), text).toBe(want);
  });

  it('P2.08 leaves words about keys and tokens alone', () => {
    for (const text of [
      'Rotate the API key before the release.',
      'The token bucket limits requests per second.',
      'Ask for the password instead of guessing it.',
      'secret: yes',
    ]) {
      expect(redactSecrets(text, ['ab'])).toBe(text);
    }
  });
});

describe('P2.08 a Reflection reply is lessons JSON or nothing', () => {
  it('P2.08 takes the JSON alone or in one fenced block, and refuses anything else whole', () => {
    const lessons = { lessons: [{ lesson: 'Run the linter first.', evidence: 'CI failed on lint' }] };
    expect(parseReflection(JSON.stringify(lessons))).toEqual({
      ok: true,
      lessons: [{ text: 'Run the linter first.', evidence: 'CI failed on lint', replaces: null }],
    });
    expect(parseReflection(`\`\`\`json\n${JSON.stringify(lessons)}\n\`\`\``).ok).toBe(true);
    expect(parseReflection('{"lessons": []}')).toEqual({ ok: true, lessons: [] });
    for (const [reply, why] of [
      [`Sure! ${JSON.stringify(lessons)}`, /not JSON/],
      ['{"lessons": [{"lesson": ""}]}', /must not be empty/],
      ['{"lessons": [{"lesson": "a", "scope": "everywhere"}]}', /not lessons/],
      [`{"lessons": [{"lesson": "a", "evidence": "${'e'.repeat(501)}"}]}`, /at most 500 characters/],
      ['[]', /not lessons/],
    ] as const) {
      const parsed = parseReflection(reply);
      expect(parsed.ok, reply).toBe(false);
      if (!parsed.ok) expect(parsed.reason).toMatch(why);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { ArgMatcher } from './auto-prompter';
import { compileLinear } from './linear-regex';

describe('compileLinear', () => {
  it('runs JavaScript-style patterns on RE2 and refuses what RE2 cannot run, saying why', () => {
    const ok = compileLinear('^\\u0066o{2}(?<rest>.*)$');
    expect(ok.ok && ok.re.test('foobar')).toBe(true);
    expect(compileLinear('a(?=b)')).toEqual({ ok: false, error: expect.stringMatching(/^uses a lookahead/) });
    expect(compileLinear('(a)\\1')).toEqual({ ok: false, error: expect.stringMatching(/^uses a backreference/) });
    expect(compileLinear('\\\\k<x>').ok).toBe(true); // an escaped backslash, then a literal k<x>
    expect(compileLinear('a{2,1}')).toEqual({
      ok: false,
      error: 'is not a valid regular expression: invalid repeat count (at `{2,1}`)',
    });
  });

  it("an Auto Prompter rule's regex is checked by the engine that runs it", () => {
    expect(ArgMatcher.safeParse({ regex: '^npm (test|run \\w+)$' }).success).toBe(true);
    const refused = ArgMatcher.safeParse({ regex: '^(?!rm )' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toMatch(/^uses a lookahead .* \(RE2\) cannot run/);
  });
});

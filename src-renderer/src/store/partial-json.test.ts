// The partial reader of a streamed tool call's string field: every prefix of the arguments gives a prefix of the
// final value (cuts inside escapes and surrogate pairs included), and the whole text gives what JSON.parse gives.
import { describe, expect, it } from 'vitest';
import { readPartialStringField } from './partial-json';

const message =
  '# Done\n\nI changed **two** files:\n\n- `src/a.ts` — the "quoted" part\n- C:\\temp\\b.txt\n\n' +
  'Tabs\there, a slash / and unicode: é 日本 😀 \u0001.';

/** Arguments as a model writes them: other fields around, a non-ASCII character escaped, the rest raw. */
function argumentsOf(text: string): string {
  const escaped = JSON.stringify(text).replace('é', '\\u00e9').replace('😀', '\\ud83d\\ude00');
  return `{"status": "success", "extra": {"n": [1, 2.5, true, null, "x}"]}, "message": ${escaped}, "tail": 1}`;
}

describe('readPartialStringField', () => {
  it('gives the whole value once the arguments are complete, as JSON.parse does', () => {
    const json = argumentsOf(message);
    expect(json).toContain('\\u00e9');
    expect(json).toContain('\\ud83d\\ude00');
    expect(readPartialStringField(json, 'message')).toBe(JSON.parse(json).message);
    expect(readPartialStringField(json, 'status')).toBe('success');
  });

  it('gives a prefix of the final value at every cut point, growing monotonically', () => {
    const json = argumentsOf(message);
    let previous = '';
    let seen = 0;
    for (let cut = 0; cut <= json.length; cut++) {
      const value = readPartialStringField(json.slice(0, cut), 'message');
      if (value === null) {
        // Only before the field's value has begun.
        expect(cut).toBeLessThan(json.indexOf('"message":') + '"message":'.length);
        continue;
      }
      expect(message.startsWith(value), `cut ${cut}: ${JSON.stringify(value)}`).toBe(true);
      expect(value.length).toBeGreaterThanOrEqual(previous.length);
      previous = value;
      seen++;
    }
    expect(previous).toBe(message);
    expect(seen).toBeGreaterThan(message.length);
  });

  it('keeps the text before an escape cut in the middle', () => {
    expect(readPartialStringField('{"message":"a\\', 'message')).toBe('a');
    expect(readPartialStringField('{"message":"a\\n', 'message')).toBe('a\n');
    expect(readPartialStringField('{"message":"a\\u00', 'message')).toBe('a');
    expect(readPartialStringField('{"message":"a\\u00e9', 'message')).toBe('aé');
    expect(readPartialStringField('{"message":"say \\"hi', 'message')).toBe('say "hi');
    // Half a surrogate pair is not shown until the other half comes.
    expect(readPartialStringField('{"message":"x\\ud83d', 'message')).toBe('x');
    expect(readPartialStringField('{"message":"x\\ud83d\\ude00', 'message')).toBe('x😀');
  });

  it('is null before the field, empty once its value begins', () => {
    expect(readPartialStringField('', 'message')).toBeNull();
    expect(readPartialStringField('{"status":"succ', 'message')).toBeNull();
    expect(readPartialStringField('{"status":"success","mess', 'message')).toBeNull();
    expect(readPartialStringField('{"status":"success","message"', 'message')).toBeNull();
    expect(readPartialStringField('{"status":"success","message": ', 'message')).toBe('');
    expect(readPartialStringField('{"status":"success","message":"', 'message')).toBe('');
  });

  it('is null for text that is not an object or a field that is not a string', () => {
    expect(readPartialStringField('not json', 'message')).toBeNull();
    expect(readPartialStringField('["message"]', 'message')).toBeNull();
    expect(readPartialStringField('{"message": 42}', 'message')).toBeNull();
    expect(readPartialStringField('{"status":"success"}', 'message')).toBeNull();
  });

  it('does not take a nested field of the same name', () => {
    const json = '{"meta": {"message": "inner"}, "message": "outer"}';
    expect(readPartialStringField(json, 'message')).toBe('outer');
    expect(readPartialStringField(json.slice(0, 30), 'message')).toBeNull();
  });
});

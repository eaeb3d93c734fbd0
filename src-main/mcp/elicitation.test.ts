// What a server may ask the person: a flat form read into the card's fields; a nested one, or one asking for a secret,
// refused with the reason; the person's answer checked against the fields, each problem named.
import { describe, expect, it } from 'vitest';
import { checkAnswer, MAX_FIELDS, readForm, secretLooking } from './elicitation';

const form = (properties: Record<string, unknown>, required: string[] = []) => ({
  message: 'Details, please.',
  requestedSchema: { type: 'object', properties, required },
});

describe('elicitation forms', () => {
  it('reads every primitive the spec allows into fields, with titles, bounds, choices and defaults', () => {
    const read = readForm(
      form(
        {
          name: { type: 'string', title: 'Name', minLength: 2, maxLength: 20 },
          email: { type: 'string', format: 'email', description: 'Where we write' },
          age: { type: 'integer', minimum: 0, maximum: 150 },
          ratio: { type: 'number', default: 0.5 },
          ok: { type: 'boolean', default: true },
          size: { type: 'string', enum: ['s', 'm'], enumNames: ['Small', 'Medium'] },
          color: { type: 'string', oneOf: [{ const: 'r', title: 'Red' }] },
          tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1 },
          picks: { type: 'array', items: { anyOf: [{ const: 'x', title: 'Ex' }] } },
        },
        ['name'],
      ),
    );
    if (!read.ok) throw new Error(read.reason);
    expect(read.fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['name', 'string', true],
      ['email', 'string', false],
      ['age', 'integer', false],
      ['ratio', 'number', false],
      ['ok', 'boolean', false],
      ['size', 'choice', false],
      ['color', 'choice', false],
      ['tags', 'multi', false],
      ['picks', 'multi', false],
    ]);
    expect(read.fields[0]).toMatchObject({ title: 'Name', min: 2, max: 20 });
    expect(read.fields[1]).toMatchObject({ title: 'email', format: 'email', description: 'Where we write' });
    expect(read.fields[3]?.default).toBe(0.5);
    expect(read.fields[5]?.options).toEqual([
      { value: 's', title: 'Small' },
      { value: 'm', title: 'Medium' },
    ]);
    expect(read.fields[8]?.options).toEqual([{ value: 'x', title: 'Ex' }]);
  });

  it('refuses what is not a flat form, naming the field', () => {
    const refused = (params: unknown) => {
      const read = readForm(params);
      return read.ok ? 'read' : read.reason;
    };
    expect(refused(form({ address: { type: 'object', properties: { city: { type: 'string' } } } }))).toMatch(
      /field "address" is of type "object".*a form is flat/,
    );
    expect(refused(form({ rows: { type: 'array', items: { type: 'object' } } }))).toMatch(/field "rows" is a list/);
    expect(refused(form({ ref: { $ref: '#/defs/x' } }))).toMatch(/field "ref" is of type null/);
    expect(refused(form({ size: { type: 'string', enum: [1, 2] } }))).toMatch(/choices that are not strings/);
    expect(refused(form({ a: { type: 'string' } }, ['b']))).toMatch(/required field "b" is not in the form/);
    expect(refused({ message: 'x', requestedSchema: { type: 'array' } })).toMatch(/not an object schema/);
    expect(refused({ mode: 'url', message: 'x', url: 'https://example.com', elicitationId: '1' })).toMatch(
      /form elicitations only/,
    );
    expect(refused({ requestedSchema: { type: 'object', properties: {} } })).toMatch(/no message/);
    const many = Object.fromEntries(Array.from({ length: MAX_FIELDS + 1 }, (_, i) => [`f${i}`, { type: 'string' }]));
    expect(refused(form(many))).toMatch(/at most 30/);
  });

  it('refuses a field that looks like a secret, by name, title or format, and not a word that only contains one', () => {
    for (const [name, schema] of [
      ['password', { type: 'string' }],
      ['apiKey', { type: 'string' }],
      ['api_key', { type: 'string' }],
      ['githubToken', { type: 'string' }],
      ['client-secret', { type: 'string' }],
      ['value', { type: 'string', title: 'Your PIN' }],
      ['value', { type: 'string', format: 'password' }],
      ['value', { type: 'string', writeOnly: true }],
    ] as const) {
      expect(secretLooking(name, schema), name).not.toBeNull();
      const read = readForm(form({ [name]: schema }));
      expect(read.ok ? '' : read.reason).toMatch(/looks like a secret/);
    }
    for (const name of ['keyword', 'monkey', 'tokenizer_name', 'username', 'passage']) {
      expect(secretLooking(name, { type: 'string' }), name).toBeNull();
    }
  });

  it('checks the answer: required fields, kinds, bounds, choices and formats, each problem named; nothing extra', () => {
    const read = readForm(
      form(
        {
          name: { type: 'string', minLength: 2 },
          n: { type: 'integer', minimum: 1, maximum: 5 },
          size: { type: 'string', enum: ['s', 'm'] },
          tags: { type: 'array', items: { enum: ['a', 'b'] }, maxItems: 1 },
          mail: { type: 'string', format: 'email' },
          day: { type: 'string', format: 'date' },
          ok: { type: 'boolean' },
        },
        ['name', 'n'],
      ),
    );
    if (!read.ok) throw new Error(read.reason);
    const bad = checkAnswer(read.fields, {
      n: 2.5,
      size: 'xl',
      tags: ['a', 'b'],
      mail: 'nobody',
      day: '3 May',
      ok: 'yes',
      other: 'x',
    });
    expect(bad).toEqual({
      ok: false,
      issues: [
        { field: 'other', message: 'the form has no such field' },
        { field: 'name', message: 'is required' },
        { field: 'n', message: 'must be a whole number' },
        { field: 'size', message: 'must be one of s, m' },
        { field: 'tags', message: 'must choose at most 1' },
        { field: 'mail', message: 'must be an email address' },
        { field: 'day', message: 'must be a date (YYYY-MM-DD)' },
        { field: 'ok', message: 'must be true or false' },
      ],
    });
    expect(checkAnswer(read.fields, { name: 'Ada', n: 9 })).toMatchObject({
      ok: false,
      issues: [{ field: 'n', message: 'must be at most 5' }],
    });
    expect(
      checkAnswer(read.fields, { name: 'Ada', n: 3, size: 'm', tags: ['b'], day: '2026-12-03', mail: '' }),
    ).toEqual({ ok: true, content: { name: 'Ada', n: 3, size: 'm', tags: ['b'], day: '2026-12-03' } });
  });
});

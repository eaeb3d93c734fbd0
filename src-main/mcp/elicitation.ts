// What an MCP server may ask the person (elicitation, form mode): a flat form of primitive fields as the MCP spec
// restricts it (strings, numbers, booleans, choices), read into the fields the task's card shows, and the person's
// answer checked against them before it goes back. A form that is not flat, or that asks for something that looks like
// a secret (the spec says servers must not ask for one this way: a password, a token, an API key …), is never shown:
// the server gets an error saying why, and the task a note.
import type { McpPromptField } from '../../src-shared/contract';

/** What a server's request is read into: the card's message and fields, or why it is not shown. */
export type ReadForm = { ok: true; message: string; fields: McpPromptField[] } | { ok: false; reason: string };

/** A form with more fields than this is not something to fill in on a card. */
export const MAX_FIELDS = 30;
const MAX_MESSAGE = 4000;

/** Words of a field's name or title that say it holds a secret (split at `_`, `-`, spaces and camelCase). */
const SECRET_WORDS = new Set([
  'password',
  'passwd',
  'passphrase',
  'pwd',
  'secret',
  'token',
  'key',
  'apikey',
  'credential',
  'credentials',
  'otp',
  'pin',
  'cvv',
  'cvc',
  'ssn',
  'privatekey',
]);
/** Formats (JSON Schema's and others') that hold a secret. */
const SECRET_FORMATS = new Set(['password', 'secret', 'token']);

const words = (text: string) =>
  text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** Why a field looks like a secret, or null. */
export function secretLooking(name: string, schema: Record<string, unknown>): string | null {
  const format = typeof schema.format === 'string' ? schema.format.toLowerCase() : '';
  if (SECRET_FORMATS.has(format)) return `its format is "${format}"`;
  if (schema.writeOnly === true) return 'it is marked writeOnly';
  const title = typeof schema.title === 'string' ? schema.title : '';
  const all = [...words(name), ...words(title)];
  const joined = words(name).join('');
  const word = all.find((w) => SECRET_WORDS.has(w)) ?? (SECRET_WORDS.has(joined) ? joined : undefined);
  return word === undefined ? null : `its name or title says "${word}"`;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The choices of a string field (`enum` with optional `enumNames`, or `oneOf` of `{const, title}`), or null. */
function choicesOf(schema: Record<string, unknown>): { value: string; title: string }[] | null | 'bad' {
  if (Array.isArray(schema.enum)) {
    if (!schema.enum.every((v) => typeof v === 'string')) return 'bad';
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((value, i) => ({ value, title: text(names[i]) ?? value }));
  }
  if (Array.isArray(schema.oneOf)) {
    const options = schema.oneOf.map((o) =>
      isRecord(o) && typeof o.const === 'string' ? { value: o.const, title: text(o.title) ?? o.const } : null,
    );
    return options.every((o) => o !== null) ? options : 'bad';
  }
  return null;
}

/** One property of the requested schema as a field, or why it is not one a flat form can hold. */
function fieldOf(name: string, raw: unknown, required: boolean): McpPromptField | string {
  if (!isRecord(raw)) return `field "${name}" is not a schema`;
  const secret = secretLooking(name, raw);
  if (secret) return `field "${name}" looks like a secret (${secret}); MCP servers must not ask for secrets this way`;
  const base = {
    name,
    title: text(raw.title) ?? name,
    description: text(raw.description),
    required,
    format: null as string | null,
    options: [] as { value: string; title: string }[],
    min: null as number | null,
    max: null as number | null,
  };
  switch (raw.type) {
    case 'string': {
      const choices = choicesOf(raw);
      if (choices === 'bad') return `field "${name}" has choices that are not strings`;
      if (choices) {
        const fallback = text(raw.default);
        return { ...base, kind: 'choice', options: choices, default: fallback };
      }
      return {
        ...base,
        kind: 'string',
        format: text(raw.format),
        default: text(raw.default),
        min: num(raw.minLength),
        max: num(raw.maxLength),
      };
    }
    case 'number':
    case 'integer':
      return { ...base, kind: raw.type, default: num(raw.default), min: num(raw.minimum), max: num(raw.maximum) };
    case 'boolean':
      return { ...base, kind: 'boolean', default: typeof raw.default === 'boolean' ? raw.default : null };
    case 'array': {
      const items = isRecord(raw.items) ? raw.items : null;
      const choices = items
        ? Array.isArray(items.anyOf)
          ? choicesOf({ oneOf: items.anyOf })
          : choicesOf(items)
        : null;
      if (!items || !choices || choices === 'bad' || (items.type !== undefined && items.type !== 'string'))
        return `field "${name}" is a list of something else than choices of strings`;
      const fallback =
        Array.isArray(raw.default) && raw.default.every((v) => typeof v === 'string') ? raw.default : null;
      return {
        ...base,
        kind: 'multi',
        options: choices,
        default: fallback,
        min: num(raw.minItems),
        max: num(raw.maxItems),
      };
    }
    default:
      return `field "${name}" is of type ${JSON.stringify(raw.type ?? null)}, not a string, number, boolean or choice (a form is flat)`;
  }
}

/** Reads an `elicitation/create` request's params into a card's form, or says why it is not shown. */
export function readForm(params: unknown): ReadForm {
  if (!isRecord(params)) return { ok: false, reason: 'the request has no params' };
  const mode = params.mode ?? 'form';
  if (mode !== 'form') return { ok: false, reason: `the client answers form elicitations only, not "${String(mode)}"` };
  const message = text(params.message);
  if (message === null || message.trim() === '') return { ok: false, reason: 'the request has no message' };
  const schema = params.requestedSchema;
  if (!isRecord(schema) || schema.type !== 'object' || !isRecord(schema.properties))
    return { ok: false, reason: 'requestedSchema is not an object schema with properties' };
  const required = Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : [];
  const entries = Object.entries(schema.properties);
  if (entries.length > MAX_FIELDS)
    return { ok: false, reason: `the form has ${entries.length} fields (at most ${MAX_FIELDS})` };
  const fields: McpPromptField[] = [];
  for (const [name, raw] of entries) {
    const field = fieldOf(name, raw, required.includes(name));
    if (typeof field === 'string') return { ok: false, reason: field };
    fields.push(field);
  }
  const missing = required.find((r) => !entries.some(([name]) => name === r));
  if (missing !== undefined) return { ok: false, reason: `required field "${missing}" is not in the form` };
  return { ok: true, message: message.slice(0, MAX_MESSAGE), fields };
}

type Value = string | number | boolean | string[];

/**
 * The person's answer checked against the form: every required field given, each value of its field's kind and within
 * its bounds, nothing the form did not ask. Returns the content to send, or the problems naming each field.
 */
export function checkAnswer(
  fields: readonly McpPromptField[],
  content: Readonly<Record<string, Value>>,
): { ok: true; content: Record<string, Value> } | { ok: false; issues: { field: string; message: string }[] } {
  const issues: { field: string; message: string }[] = [];
  const out: Record<string, Value> = {};
  for (const name of Object.keys(content)) {
    if (!fields.some((f) => f.name === name)) issues.push({ field: name, message: 'the form has no such field' });
  }
  for (const field of fields) {
    const value = content[field.name];
    const blank = value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
    if (blank) {
      if (field.required) issues.push({ field: field.name, message: 'is required' });
      continue;
    }
    const problem = valueProblem(field, value);
    if (problem) issues.push({ field: field.name, message: problem });
    else out[field.name] = value;
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, content: out };
}

function valueProblem(field: McpPromptField, value: Value): string | null {
  const values = field.options.map((o) => o.value);
  switch (field.kind) {
    case 'string':
      if (typeof value !== 'string') return 'must be text';
      if (field.min !== null && value.length < field.min) return `must be at least ${field.min} characters`;
      if (field.max !== null && value.length > field.max) return `must be at most ${field.max} characters`;
      if (field.format === 'email' && !/^[^\s@]+@[^\s@]+$/.test(value)) return 'must be an email address';
      if (field.format === 'uri' && !URL.canParse(value)) return 'must be a URL';
      if (field.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return 'must be a date (YYYY-MM-DD)';
      if (field.format === 'date-time' && Number.isNaN(Date.parse(value))) return 'must be a date and time';
      return null;
    case 'number':
    case 'integer':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (field.kind === 'integer' && !Number.isInteger(value)) return 'must be a whole number';
      if (field.min !== null && value < field.min) return `must be at least ${field.min}`;
      if (field.max !== null && value > field.max) return `must be at most ${field.max}`;
      return null;
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'choice':
      return typeof value === 'string' && values.includes(value) ? null : `must be one of ${values.join(', ')}`;
    case 'multi': {
      if (!Array.isArray(value) || !value.every((v) => values.includes(v)))
        return `must be a list of ${values.join(', ')}`;
      if (field.min !== null && value.length < field.min) return `must choose at least ${field.min}`;
      if (field.max !== null && value.length > field.max) return `must choose at most ${field.max}`;
      return null;
    }
  }
}

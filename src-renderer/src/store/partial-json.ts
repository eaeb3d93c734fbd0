// Reads one string field of a JSON object whose text is still arriving (a tool call's arguments as the model streams
// them): what has come of its value so far, decoded. A prefix cut inside an escape keeps the text before the escape,
// so every longer prefix gives the same text or more of it.

/** The decoded text of a string and where it stopped: after its closing quote, or at the end of the input. */
interface StringRead {
  value: string;
  end: number;
  closed: boolean;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

const HEX4 = /^[0-9a-fA-F]{4}$/;

/** The string starting at the quote at `start`. Stops before an escape that is cut or malformed. */
function readString(json: string, start: number): StringRead {
  let value = '';
  let i = start + 1;
  while (i < json.length) {
    const ch = json[i] as string;
    if (ch === '"') return { value, end: i + 1, closed: true };
    if (ch !== '\\') {
      value += ch;
      i++;
      continue;
    }
    const kind = json[i + 1];
    if (kind === undefined) break;
    if (kind === 'u') {
      const hex = json.slice(i + 2, i + 6);
      if (!HEX4.test(hex)) break;
      value += String.fromCharCode(Number.parseInt(hex, 16));
      i += 6;
      continue;
    }
    const simple = SIMPLE_ESCAPES[kind];
    if (simple === undefined) break;
    value += simple;
    i += 2;
  }
  // Cut between the two halves of a surrogate pair: the half alone is not a character yet.
  const last = value.charCodeAt(value.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) value = value.slice(0, -1);
  return { value, end: json.length, closed: false };
}

function skipSpace(json: string, i: number): number {
  while (i < json.length && ' \t\n\r'.includes(json[i] as string)) i++;
  return i;
}

/** The index after the value at `i` (string, number, literal, object or array), or -1 when it is not complete yet. */
function skipValue(json: string, i: number): number {
  const ch = json[i];
  if (ch === '"') {
    const read = readString(json, i);
    return read.closed ? read.end : -1;
  }
  if (ch === '{' || ch === '[') {
    let depth = 0;
    while (i < json.length) {
      const c = json[i] as string;
      if (c === '"') {
        const read = readString(json, i);
        if (!read.closed) return -1;
        i = read.end;
        continue;
      }
      if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return -1;
  }
  // A number or literal ends at a delimiter; at the end of the input it may still be growing.
  while (i < json.length && !',}] \t\n\r'.includes(json[i] as string)) i++;
  return i < json.length ? i : -1;
}

/**
 * The value of the top-level string field `field` in the JSON object text `json`, as far as it has arrived: '' when
 * its value has not begun, null when the field has not come yet (or is not a string, or `json` is not an object).
 */
export function readPartialStringField(json: string, field: string): string | null {
  let i = skipSpace(json, 0);
  if (json[i] !== '{') return null;
  i++;
  for (;;) {
    i = skipSpace(json, i);
    if (i >= json.length || json[i] === '}') return null;
    if (json[i] === ',') {
      i++;
      continue;
    }
    if (json[i] !== '"') return null;
    const key = readString(json, i);
    if (!key.closed) return null;
    i = skipSpace(json, key.end);
    if (i >= json.length || json[i] !== ':') return null;
    i = skipSpace(json, i + 1);
    if (key.value === field) {
      if (i >= json.length) return '';
      return json[i] === '"' ? readString(json, i).value : null;
    }
    if (i >= json.length) return null;
    i = skipValue(json, i);
    if (i === -1) return null;
  }
}

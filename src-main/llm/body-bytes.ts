// A request body's bytes, exactly as `JSON.stringify(body)` writes them, with each message and tool encoded once: a
// conversation only grows and its messages never change, so the request at turn N encodes its new messages, not all
// N turns again, and is one copy of the bytes already made. Given to the SDK as bytes, the body is not serialized by
// it, nor checked and encoded again by fetch.

/** The UTF-8 JSON of each message and tool object seen; an object is never changed once sent (request-body.ts). */
const encoded = new WeakMap<object, Uint8Array>();
/** Not Buffer.from: a small Buffer is a slice of a shared 8 KB pool, which a cached one would keep alive. */
const utf8 = new TextEncoder();

/** The elements of these keys' arrays are the cached objects: the conversation and the tool specs. */
const CACHED_ARRAYS: ReadonlySet<string> = new Set(['messages', 'tools']);

const COMMA = utf8.encode(',');
const ARRAY_END = utf8.encode(']');

export function bodyBytes(body: object): Buffer {
  const parts: Uint8Array[] = [];
  let separator = '{';
  for (const [key, value] of Object.entries(body)) {
    if (CACHED_ARRAYS.has(key) && Array.isArray(value)) {
      parts.push(Buffer.from(`${separator}${JSON.stringify(key)}:[`));
      for (let i = 0; i < value.length; i++) {
        if (i > 0) parts.push(COMMA);
        parts.push(elementBytes(value[i]));
      }
      parts.push(ARRAY_END);
    } else {
      const json = JSON.stringify(value);
      if (json === undefined) continue; // undefined, a function: JSON.stringify leaves the key out
      parts.push(Buffer.from(`${separator}${JSON.stringify(key)}:${json}`));
    }
    separator = ',';
  }
  parts.push(Buffer.from(separator === '{' ? '{}' : '}'));
  return Buffer.concat(parts);
}

function elementBytes(element: unknown): Uint8Array {
  if (typeof element !== 'object' || element === null) return utf8.encode(JSON.stringify(element) ?? 'null');
  let bytes = encoded.get(element);
  if (bytes === undefined) {
    bytes = utf8.encode(JSON.stringify(element) ?? 'null');
    encoded.set(element, bytes);
  }
  return bytes;
}

// A request body's bytes, exactly as `JSON.stringify(body)` writes them, with each message and tool encoded once: a
// conversation only grows and its messages never change, so the request at turn N encodes its new messages, not all
// N turns again, and is one copy of the bytes already made. Given to the SDK as bytes, the body is not serialized by
// it, nor checked and encoded again by fetch.
import { PrefixMemo } from './prefix-memo';

/** Not Buffer.from: a small Buffer is a slice of a shared 8 KB pool, which a kept one would keep alive. */
const utf8 = new TextEncoder();

/**
 * Each element's UTF-8 JSON, after a comma but the first, for the list its first element names (the system message,
 * the first tool): an object is never changed once sent (request-body.ts).
 */
const elements = new PrefixMemo<unknown, Uint8Array>((element, i) =>
  utf8.encode(`${i > 0 ? ',' : ''}${JSON.stringify(element) ?? 'null'}`),
);

/** The keys whose arrays are encoded element by element: the conversation and the tool specs. */
const GROWING: ReadonlySet<string> = new Set(['messages', 'tools']);

export function bodyBytes(body: object): Buffer {
  const parts: Uint8Array[] = [];
  let separator = '{';
  for (const [key, value] of Object.entries(body)) {
    if (GROWING.has(key) && Array.isArray(value)) {
      parts.push(utf8.encode(`${separator}${JSON.stringify(key)}:[`));
      const first: unknown = value[0];
      if (typeof first === 'object' && first !== null)
        for (const bytes of elements.apply(first, value)) parts.push(bytes);
      else parts.push(utf8.encode(JSON.stringify(value).slice(1, -1)));
      parts.push(utf8.encode(']'));
    } else {
      const json = JSON.stringify(value);
      if (json === undefined) continue; // undefined, a function: JSON.stringify leaves the key out
      parts.push(utf8.encode(`${separator}${JSON.stringify(key)}:${json}`));
    }
    separator = ',';
  }
  parts.push(utf8.encode(separator === '{' ? '{}' : '}'));
  return Buffer.concat(parts);
}

// JSON of a conversation's messages and tool lists, serialized once per object: they are never edited (the
// Conversation only appends, or replaces its whole list), and both the transcript and the request body need them.
const serialized = new WeakMap<object, string>();

/** JSON.stringify(value) for a message or tool list, computed once per object. */
export function jsonOnce(value: object): string {
  let json = serialized.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    serialized.set(value, json);
  }
  return json;
}

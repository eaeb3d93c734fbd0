// The request body's bytes, serialized the way JSON.stringify would, but incrementally: a job's conversation only
// grows (spec 3.1–3.4), so each message is serialized once and the messages already sent are reused as one string.
// A request then costs JSON.stringify of what is new, not of the whole conversation (O(n) per job, not O(n²)).
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { jsonOnce } from './message-json';

type Body = ChatCompletionCreateParamsStreaming;

export class BodyEncoder {
  /**
   * Per conversation (keyed by its first message: jobs running at once share a profile's client), the messages of its
   * last body and their serialized list without brackets; gone with the conversation.
   */
  private readonly last = new WeakMap<object, { messages: readonly object[]; json: string }>();

  /** JSON of `body`, equal to JSON.stringify(body). A string, which fetch encodes once (bytes it would copy). */
  encode(body: Body): string {
    let json = '{';
    for (const [key, value] of Object.entries(body)) {
      if (value === undefined) continue;
      if (json.length > 1) json += ',';
      json += `${JSON.stringify(key)}:`;
      if (key === 'messages') json += `[${this.messages(value as readonly object[])}]`;
      else if (key === 'tools') json += jsonOnce(value as object);
      else json += JSON.stringify(value);
    }
    return `${json}}`;
  }

  private messages(messages: readonly object[]): string {
    const first = messages[0];
    if (first === undefined) return '';
    const last = this.last.get(first);
    let json = '';
    let from = 0;
    if (last && last.messages.length <= messages.length && last.messages.every((m, i) => m === messages[i])) {
      json = last.json;
      from = last.messages.length;
    }
    for (let i = from; i < messages.length; i++) json += (i > 0 ? ',' : '') + jsonOnce(messages[i] as object);
    this.last.set(first, { messages, json }); // the body's own copy of the list (LlmClient.body), never changed after
    return json;
  }
}

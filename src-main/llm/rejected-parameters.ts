// A 400/422 that names an optional parameter we sent (Mistral's 422 `extra_forbidden` on `stream_options`): which
// parameters to leave out and send the request again without. The SDK keeps a JSON error body only when it has an
// `error` key, so the answer's text is kept here, by the request body it answered.
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { OptionalParameter } from '../../src-shared/contract/profiles';

/** Statuses a server answers a parameter it does not take with (FastAPI/pydantic servers: 422). */
const REJECTING = new Set([400, 422]);
/** Error bodies waiting for the client to read them; more are never pending at once in practice. */
const MAX_PENDING = 16;

/** The optional parameters of `body` that `text` names. */
export function rejectedParameters(text: string, body: ChatCompletionCreateParamsStreaming): OptionalParameter[] {
  return OptionalParameter.options.filter((p) => body[p] !== undefined && new RegExp(`\\b${p}\\b`).test(text));
}

/** A fetch for the SDK that keeps the text of each 400/422 answer, keyed by the request body it answered. */
export class RejectionBodies {
  private readonly pending = new Map<string, string>();

  constructor(private readonly inner: typeof fetch = fetch) {}

  readonly fetch: typeof fetch = async (input, init) => {
    const response = await this.inner(input, init);
    if (REJECTING.has(response.status) && typeof init?.body === 'string') {
      const text = await response
        .clone()
        .text()
        .catch(() => '');
      if (this.pending.size >= MAX_PENDING) this.pending.delete(this.pending.keys().next().value ?? '');
      this.pending.set(init.body, text);
    }
    return response;
  };

  /** The answer to this body (as the SDK serialises it), once. */
  take(body: ChatCompletionCreateParamsStreaming): string {
    const key = JSON.stringify(body);
    const text = this.pending.get(key) ?? '';
    this.pending.delete(key);
    return text;
  }
}

// A 400/422 that names an optional parameter we sent (Mistral's 422 `extra_forbidden` on `stream_options`): which
// parameters to leave out and send the request again without, read from the server's own message.
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { OptionalParameter } from '../../src-shared/contract/profiles';

/** The optional parameters of `body` that `text` names. */
export function rejectedParameters(text: string, body: ChatCompletionCreateParamsStreaming): OptionalParameter[] {
  return OptionalParameter.options.filter((p) => body[p] !== undefined && new RegExp(`\\b${p}\\b`).test(text));
}

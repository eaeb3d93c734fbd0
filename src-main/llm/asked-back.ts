// A 400 that says an assistant message lacks what the server streamed with it (DeepSeek's and Kimi's
// `reasoning_content`, Gemini's thought signature): which extra to send back, read from the server's own message.
import type { SentBack } from '../../src-shared/contract/profiles';

/** The words each server uses (provider-kinds.ts cites the messages). */
const NAMES: Readonly<Record<SentBack, RegExp>> = {
  reasoning_content_on_tool_turns: /\breasoning_content\b/,
  reasoning_details: /\breasoning_details\b/,
  extra_content: /\bthought_?signature/i,
};

/** The extras `text` names, in a fixed order. */
export function askedBack(text: string): SentBack[] {
  return (Object.keys(NAMES) as SentBack[]).filter((extra) => NAMES[extra].test(text));
}

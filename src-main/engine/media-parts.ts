// The images and audio of tool results, for a model whose profile takes them: the chat API carries media only in
// user messages, so they follow the tool results as content parts of the next user message, each under a line that
// names the call it came from (the tool result's own text describes it in its place).
import type { UserContentPart } from '../llm/types';
import { AUDIO_FORMATS } from '../mcp/content';
import type { ToolMedia } from '../tools/types';

export interface MediaFromCall {
  call: string;
  callId: string;
  media: readonly ToolMedia[];
}

/** The user message's parts: its text (notes, interjections) first, then each call's media under its name. */
export function mediaParts(text: string, calls: readonly MediaFromCall[]): UserContentPart[] {
  const parts: UserContentPart[] = text ? [{ type: 'text', text }] : [];
  for (const { call, callId, media } of calls) {
    parts.push({ type: 'text', text: `What ${call} (call ${callId}) returned:` });
    for (const m of media) {
      const format = AUDIO_FORMATS[m.mimeType];
      if (m.kind === 'image')
        parts.push({ type: 'image_url', image_url: { url: `data:${m.mimeType};base64,${m.data}` } });
      else if (format) parts.push({ type: 'input_audio', input_audio: { data: m.data, format } });
    }
  }
  return parts;
}

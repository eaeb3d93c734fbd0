// What an Agent2Agent message says, as MAESTRO takes it: its text and data parts as the instruction or comment text
// (data as JSON), its file parts (bytes only: MAESTRO fetches no URL) as a new task's attachments.
import type { Message } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';

export interface MessageContent {
  text: string;
  attachments: { name: string; mediaType: string; data: string }[];
}

export function messageContent(message: Message): MessageContent {
  const texts: string[] = [];
  const attachments: MessageContent['attachments'] = [];
  for (const [i, part] of message.parts.entries()) {
    const content = part.content;
    switch (content?.$case) {
      case 'text':
        texts.push(content.value);
        break;
      case 'data':
        texts.push(`\`\`\`json\n${JSON.stringify(content.value, null, 2)}\n\`\`\``);
        break;
      case 'raw':
        attachments.push({
          name: part.filename || `attachment-${i + 1}`,
          mediaType: part.mediaType || 'application/octet-stream',
          data: Buffer.from(content.value).toString('base64'),
        });
        break;
      case 'url':
        throw new RequestMalformedError(
          `message.parts[${i}]: a file given by URL is not fetched; send its bytes instead`,
        );
      case undefined:
        throw new RequestMalformedError(`message.parts[${i}]: has no text, data or file`);
    }
  }
  const text = texts.join('\n\n').trim();
  if (text === '') throw new RequestMalformedError('message.parts: the message has no text');
  return { text, attachments };
}

/** A string the caller put in the message's metadata (`pieceId`), checked to be one. */
export function metadataString(message: Message, key: string): string | undefined {
  const value: unknown = message.metadata?.[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') {
    throw new RequestMalformedError(`message.metadata.${key}: must be a non-empty string`);
  }
  return value;
}

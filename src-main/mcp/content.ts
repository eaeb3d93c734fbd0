// What the model gets from an MCP tool's result (the spec's content types): text as it is; images and audio as media
// the model takes when its profile says so, described in the text either way; embedded resources with their URI, a
// blob decoded when it is text (by its mimeType, else by being valid UTF-8); resource links named with what the
// server says of them. A result the server marks isError is a failure.
import { formatBytes, looksLikeText } from '../../src-shared/attachments';
import { fail, ok } from '../tools/outcome';
import type { ToolMedia, ToolResult } from '../tools/types';

/** One content block of a tool result (the parts used here). */
export interface ResultContent {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  description?: string;
  resource?: { uri: string; text?: string; blob?: string; mimeType?: string };
}

/** A `tools/call` result as the server sends it. */
export interface CallToolResult {
  content?: ResultContent[];
  structuredContent?: unknown;
  isError?: boolean;
}

/** The image types every chat API takes; the audio types of `input_audio` (its `format`). */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
export const AUDIO_FORMATS: Readonly<Record<string, 'wav' | 'mp3'>> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
};
/** A larger image or clip is described only (a request carries it whole). */
export const MEDIA_MAX_BYTES = 5 * 1024 * 1024;

const TEXT_TYPE =
  /^(text\/|application\/(json|xml|javascript|x-javascript|yaml|x-yaml|toml|x-sh|sql|csv|graphql)\b)|\+(json|xml)\b/;

export function toolResult(result: CallToolResult): ToolResult {
  const media: ToolMedia[] = [];
  const parts = (result.content ?? []).map((c) => contentText(c, media));
  // Structured content goes after the text (the model needs both: a server's text often only sums it up), unless a
  // text block already is that JSON, as the spec asks servers to send for older clients, or the text already holds
  // every value of it (a file's text wrapped as { content }): no second copy.
  if (result.structuredContent !== undefined) {
    const json = JSON.stringify(result.structuredContent);
    const texts = (result.content ?? []).filter((c) => c.type === 'text').map((c) => c.text ?? '');
    const said = texts.join('\n');
    if (!texts.some((t) => sameJson(t, json)) && !allSaid(result.structuredContent, said)) parts.push(json);
  }
  const text = parts.join('\n');
  if (result.isError) return fail(text || 'the tool failed without saying why');
  return media.length > 0 ? { ...ok(text), media } : ok(text);
}

/** Whether every value of `value` is a non-empty string that `text` holds already (nothing else to say). */
function allSaid(value: unknown, text: string): boolean {
  if (typeof value === 'string') return value !== '' && text.includes(value);
  if (Array.isArray(value)) return value.length > 0 && value.every((v) => allSaid(v, text));
  if (value && typeof value === 'object') {
    const values = Object.values(value);
    return values.length > 0 && values.every((v) => allSaid(v, text));
  }
  return false;
}

/** Whether `text` is the JSON `json` is (whatever its spacing). */
function sameJson(text: string, json: string): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === json;
  } catch {
    return false;
  }
}

function contentText(c: ResultContent, media: ToolMedia[]): string {
  switch (c.type) {
    case 'text':
      return c.text ?? '';
    case 'image':
    case 'audio':
      return mediaText(c.type, c.mimeType ?? '', c.data ?? '', media);
    case 'resource':
      return resourceText(c.resource, media);
    case 'resource_link': {
      const about = [c.name, c.mimeType].filter(Boolean).join(', ');
      return `[resource link ${c.uri ?? ''}${about ? ` (${about})` : ''}${c.description ? `: ${c.description}` : ''}]`;
    }
    default:
      return `[${c.type}${c.mimeType ? ` ${c.mimeType}` : ''} content not shown]`;
  }
}

/** Describes an image or clip and keeps it as media when the chat API takes its type and size. */
function mediaText(kind: 'image' | 'audio', mimeType: string, data: string, media: ToolMedia[]): string {
  const bytes = Buffer.byteLength(data, 'base64');
  const described = `[${kind} ${mimeType || 'of unknown type'}, ${formatBytes(bytes)}`;
  const takes = kind === 'image' ? IMAGE_TYPES.has(mimeType) : mimeType in AUDIO_FORMATS;
  if (!takes) return `${described}: a type the model cannot be given]`;
  if (bytes > MEDIA_MAX_BYTES) return `${described}: too large to give the model]`;
  media.push({ kind, mimeType, data });
  return `${described}]`;
}

function resourceText(resource: ResultContent['resource'], media: ToolMedia[]): string {
  const uri = resource?.uri ?? '';
  const mime = resource?.mimeType ?? '';
  const head = `[resource ${uri}${mime ? ` (${mime})` : ''}]`;
  if (resource?.text !== undefined) return `${head}\n${resource.text}`;
  if (resource?.blob === undefined) return head;
  if (mime.startsWith('image/') || mime.startsWith('audio/')) {
    return `${head}\n${mediaText(mime.startsWith('image/') ? 'image' : 'audio', mime, resource.blob, media)}`;
  }
  const bytes = Buffer.from(resource.blob, 'base64');
  const untyped = !mime || mime === 'application/octet-stream';
  if (TEXT_TYPE.test(mime) || (untyped && looksLikeText(bytes))) return `${head}\n${bytes.toString('utf8')}`;
  return `${head}\n[binary, ${formatBytes(bytes.length)}, not shown]`;
}

// The model server's own words from an HTTP error body, whatever its shape: JSON of every known layout, text or HTML.
import { STATUS_CODES } from 'node:http';

/** Longest message kept from a body: an HTML error page or a stack trace is cut here. */
export const MAX_MESSAGE_CHARS = 500;

/** What the user reads for a failed request: the body's message, else the status in words. */
export function serverMessage(status: number | undefined, body: unknown): string {
  return messageOfBody(body) ?? statusInWords(status);
}

export function statusInWords(status: number | undefined): string {
  if (status === undefined) return 'the server sent an error without a message';
  const words = STATUS_CODES[status];
  return `HTTP ${status}${words ? ` ${words}` : ''} (the response had no message)`;
}

/**
 * The message of an error body; undefined when it holds none. Known shapes: `{error:{message}}` (OpenAI, llama.cpp),
 * `{error:"text"}` (Ollama), `{message}` (vLLM's flat ErrorResponse; Mistral's `message:{detail:[…]}`), `{detail}`
 * (FastAPI), `[{error:{…}}]` (Gemini), a message that is itself JSON text, and plain text or an HTML page.
 */
export function messageOfBody(body: unknown, depth = 0): string | undefined {
  if (depth > 5 || body === null || body === undefined) return undefined;
  if (typeof body === 'string') {
    const parsed = parseObject(body);
    if (parsed !== undefined) return messageOfBody(parsed, depth + 1) ?? bounded(plainText(body));
    return bounded(plainText(body));
  }
  if (Array.isArray(body)) {
    const parts = body.map((item) => validationText(item) ?? messageOfBody(item, depth + 1));
    const found = [...new Set(parts.filter((p): p is string => p !== undefined))];
    return found.length > 0 ? bounded(found.join('; ')) : undefined;
  }
  if (typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  for (const field of ['error', 'message', 'detail', 'msg', 'error_description'] as const) {
    const found = messageOfBody(record[field], depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A FastAPI/pydantic validation entry (`{loc:["body","stream_options"], msg}`, Mistral's 422) as `loc: msg`. */
function validationText(item: unknown): string | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const { loc, msg } = item as { loc?: unknown; msg?: unknown };
  if (typeof msg !== 'string') return undefined;
  return Array.isArray(loc) && loc.length > 0 ? `${loc.join('.')}: ${msg}` : msg;
}

function parseObject(text: string): object | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return undefined;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** Text without markup: head, scripts and styles dropped, tags removed, common entities decoded, spaces collapsed. */
function plainText(text: string): string {
  return text
    .replace(/<(head|script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (_, name: string) => ENTITIES[name] ?? '')
    .replace(/\s+/g, ' ')
    .trim();
}

function bounded(text: string): string | undefined {
  if (text === '') return undefined;
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS - 1)}…` : text;
}

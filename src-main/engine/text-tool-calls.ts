// Textual tool calls: the forms a model prints as text when its server parsed no calls out of them (no tool parser,
// a small local model), read back into calls. Each form names the server code that documents it.

export interface TextToolCall {
  name: string;
  /** The arguments as JSON text, as the API's tool calls carry them. */
  arguments: string;
}

export interface TextToolCalls {
  calls: TextToolCall[];
  /** The text without the call markup: its parts trimmed, one line apart. */
  content: string;
}

const HERMES_OPEN = '<tool_call>';
const HERMES_CLOSE = '</tool_call>';
const MISTRAL_MARK = '[TOOL_CALLS]';
const LLAMA_MARK = '<|python_tag|>';

/**
 * The calls written in `text`, or null when it holds none (or markup whose JSON does not parse: then it stays text).
 * A bare JSON object is read as a call only when it names one of `toolNames`: without markup, nothing else tells it
 * from an answer that happens to be JSON.
 */
export function parseTextToolCalls(text: string, toolNames: ReadonlySet<string>): TextToolCalls | null {
  if (text.includes(HERMES_OPEN)) return hermes(text);
  if (text.includes(MISTRAL_MARK)) return mistral(text);
  if (text.includes(LLAMA_MARK)) return llama(text);
  return bareJson(text, toolNames);
}

/**
 * Hermes / Qwen: `<tool_call>{"name": …, "arguments": {…}}</tool_call>`, one or several, text around them; the last
 * may be left unclosed at the end (vllm-project/vllm vllm/entrypoints/openai/tool_parsers/hermes_tool_parser.py).
 */
function hermes(text: string): TextToolCalls | null {
  const calls: TextToolCall[] = [];
  const content: string[] = [];
  let at = 0;
  for (;;) {
    const open = text.indexOf(HERMES_OPEN, at);
    if (open < 0) break;
    content.push(text.slice(at, open));
    const close = text.indexOf(HERMES_CLOSE, open);
    const body = text.slice(open + HERMES_OPEN.length, close < 0 ? text.length : close);
    const call = toCall(parseJson(body));
    if (!call) return null;
    calls.push(call);
    at = close < 0 ? text.length : close + HERMES_CLOSE.length;
  }
  content.push(text.slice(at));
  return { calls, content: joinParts(content) };
}

/**
 * Mistral: `[TOOL_CALLS][{"name": …, "arguments": {…}}, …]` (tokenizers before v11) or `[TOOL_CALLS]name{…}` once
 * per call (v11; vllm-project/vllm vllm/entrypoints/openai/tool_parsers/mistral_tool_parser.py), or
 * `[TOOL_CALLS]name[ARGS]{…}` (v13: Ministral 3, Magistral, Devstral 2; ollama/ollama model/parsers/ministral.go).
 * The text before the first marker is the content.
 */
function mistral(text: string): TextToolCalls | null {
  const [before = '', ...segments] = text.split(MISTRAL_MARK);
  const calls: TextToolCall[] = [];
  for (const raw of segments) {
    const segment = raw.trim();
    if (segment.startsWith('[')) {
      const list = parseJson(segment);
      if (!Array.isArray(list)) return null;
      for (const item of list) {
        const call = toCall(item);
        if (!call) return null;
        calls.push(call);
      }
      continue;
    }
    const named = /^([A-Za-z0-9_.-]+)\s*(?:\[ARGS\])?\s*(\{[\s\S]*\})$/.exec(segment);
    if (!named?.[1] || !named[2] || !isObject(parseJson(named[2]))) return null;
    calls.push({ name: named[1], arguments: named[2] });
  }
  return calls.length > 0 ? { calls, content: before.trim() } : null;
}

/**
 * Llama 3.x: `<|python_tag|>{"name": …, "parameters": {…}}`, several separated by `;`; the text before the tag is the
 * content (vllm-project/vllm vllm/entrypoints/openai/tool_parsers/llama_tool_parser.py).
 */
function llama(text: string): TextToolCalls | null {
  const at = text.indexOf(LLAMA_MARK);
  const calls = jsonSequence(text.slice(at + LLAMA_MARK.length));
  return calls ? { calls, content: text.slice(0, at).trim() } : null;
}

/**
 * The whole reply is one call object (or several separated by `;`): Llama 3.x's JSON tool calling without the tag,
 * as the same vLLM parser reads an output that starts with `{`.
 */
function bareJson(text: string, toolNames: ReadonlySet<string>): TextToolCalls | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return null;
  const calls = jsonSequence(trimmed);
  return calls?.every((c) => toolNames.has(c.name)) ? { calls, content: '' } : null;
}

function jsonSequence(text: string): TextToolCall[] | null {
  const calls: TextToolCall[] = [];
  for (const part of splitTopLevel(text.trim(), ';')) {
    if (!part.trim()) continue;
    const call = toCall(parseJson(part));
    if (!call) return null;
    calls.push(call);
  }
  return calls.length > 0 ? calls : null;
}

/** Splits at `separator` outside JSON strings and brackets. */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let inString = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') depth--;
    else if (ch === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** `{name, arguments | parameters}`; arguments given as an object are written as JSON, as a string kept as is. */
function toCall(value: unknown): TextToolCall | null {
  if (!isObject(value) || typeof value.name !== 'string' || value.name === '') return null;
  const args = value.arguments ?? value.parameters ?? {};
  if (typeof args === 'string') return { name: value.name, arguments: args };
  return isObject(args) ? { name: value.name, arguments: JSON.stringify(args) } : null;
}

const joinParts = (parts: string[]) =>
  parts
    .map((p) => p.trim())
    .filter(Boolean)
    .join('\n');

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text.trim());
  } catch {
    return undefined;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// A tool's result as a type, and the spec's text form of it: a failure is written as text that starts with `Error`
// (spec 3.3 reads a `complete` result that way), and read back from that text into the type in one place.
import type { ToolResult } from './types';

export const ok = (content: string): ToolResult => ({ kind: 'result', ok: true, content });

/** A failure; its text is `Error: <message>` (a message already in that form is kept as it is). */
export const fail = (message: string): ToolResult => ({
  kind: 'result',
  ok: false,
  content: message.startsWith('Error') ? message : `Error: ${message}`,
});

/** A result read back from its written text (a transcript line, a stored answer). */
export const readResult = (content: string): ToolResult => ({
  kind: 'result',
  ok: !content.startsWith('Error'),
  content,
});

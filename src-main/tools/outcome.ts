// The two ways a built-in tool answers with text: a plain result, or one that starts with `Error` (the dispatcher and
// the model both read that prefix as failure).
import type { ToolOutcome } from './types';

export const ok = (content: string): ToolOutcome => ({ kind: 'result', content });
export const fail = (message: string): ToolOutcome => ({ kind: 'result', content: `Error: ${message}` });

// Test support: transcript lines and tool calls as the engine writes them, for replay tests.
import type { ChatMessage, TranscriptLine } from '../src-main/engine/conversation';
import type { AssistantToolCall } from '../src-main/llm/types';

export function line(message: ChatMessage, jobId = 'job_1'): TranscriptLine {
  return { ts: '2026-11-29T00:00:00.000Z', jobId, message };
}

export function call(id: string, name: string, args: Record<string, unknown> = {}): AssistantToolCall {
  return { id, type: 'function', function: { name, arguments: JSON.stringify(args) } };
}

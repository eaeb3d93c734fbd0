// Test support: transcript lines and tool calls as the engine writes them, for replay tests; a task's transcript.
import type { Maestro } from '../src-main/app/create-maestro';
import type { ChatMessage, TranscriptLine } from '../src-main/engine/conversation';
import type { TaskTranscript } from '../src-main/engine/transcripts';
import { taskTranscript } from '../src-main/jobs/transcripts';
import type { AssistantToolCall } from '../src-main/llm/types';
import { runtimeDir } from '../src-main/workspace/paths';

export function line(message: ChatMessage, jobId = 'job_1'): TranscriptLine {
  return { ts: '2026-11-29T00:00:00.000Z', jobId, message };
}

export function call(id: string, name: string, args: Record<string, unknown> = {}): AssistantToolCall {
  return { id, type: 'function', function: { name, arguments: JSON.stringify(args) } };
}

/**
 * A task's transcript where its Maestro keeps it (runs/{taskId}/transcript.jsonl alone on SQLite; the database's rows
 * with MAESTRO_TEST_DIALECT=postgres), for tests that read or set it.
 */
export function transcriptOf(maestro: Maestro, taskId: string): TaskTranscript {
  return taskTranscript(maestro.ctx.store, runtimeDir(maestro.ctx.dataDir, taskId), taskId);
}

import { describe, expect, it } from 'vitest';
import { INVOKE_KINDS, MaestroEvent, TRANSIENT_EVENT_TYPES } from './events';

/** Event types and their fields as published; a change here is a breaking change for SSE and IPC subscribers. */
const SHAPES: Record<string, string[]> = {
  'task.created': ['jobId', 'seq', 'task', 'taskId', 'ts', 'type'],
  'task.changed': ['jobId', 'seq', 'task', 'taskId', 'ts', 'type'],
  'task.deleted': ['jobId', 'seq', 'taskId', 'taskIds', 'ts', 'type'],
  'job.changed': ['job', 'jobId', 'seq', 'taskId', 'ts', 'type'],
  'comment.created': ['comment', 'jobId', 'seq', 'taskId', 'ts', 'type'],
  'tool_request.changed': ['jobId', 'request', 'seq', 'taskId', 'ts', 'type'],
  'package_request.changed': ['jobId', 'request', 'seq', 'taskId', 'ts', 'type'],
  InvokeStart: ['jobId', 'kind', 'seq', 'taskId', 'ts', 'type'],
  // depth: added later, optional (absent: the job's own turn), so older readers are unaffected.
  TurnStart: ['depth', 'jobId', 'seq', 'taskId', 'ts', 'turnCount', 'type'],
  TurnEnd: ['jobId', 'seq', 'taskId', 'ts', 'turnCount', 'type', 'usage'],
  LlmCallStart: ['attempt', 'jobId', 'llmCallCount', 'seq', 'taskId', 'ts', 'type'],
  LlmWait: ['jobId', 'reason', 'seq', 'taskId', 'ts', 'type', 'until'],
  LlmCallEnd: [
    'attempt',
    'cachedPromptTokens',
    'jobId',
    'latencyMs',
    'llmCallCount',
    'outcome',
    'seq',
    'taskId',
    'ts',
    'ttftMs',
    'type',
    'usage',
  ],
  'movement.entered': ['jobId', 'movement', 'seq', 'taskId', 'ts', 'type'],
  // denial: added later, optional (absent: the call was not denied), so older readers are unaffected.
  'tool.finished': ['callId', 'denial', 'jobId', 'name', 'ok', 'preview', 'seq', 'taskId', 'ts', 'type'],
  'job.metrics': ['attempt', 'durationMs', 'jobId', 'seq', 'status', 'taskId', 'ts', 'type', 'usage'],
  'prompt.guarded': ['jobId', 'outcome', 'seq', 'steps', 'taskId', 'tokensAfter', 'tokensBefore', 'ts', 'type'],
  'policy.fired': ['action', 'jobId', 'ruleId', 'ruleIndex', 'seq', 'taskId', 'tool', 'ts', 'type'],
  'settings.changed': ['file', 'inForce', 'jobId', 'seq', 'taskId', 'ts', 'type', 'workspacePath'],
  'webhook.failed': ['attempts', 'event', 'jobId', 'reason', 'seq', 'taskId', 'ts', 'type', 'webhook'],
  // P2.08: a lesson proposed by a Reflection of the task, or a person's decision or edit of it.
  'lesson.changed': ['jobId', 'lesson', 'seq', 'taskId', 'ts', 'type'],
  'task.routed': ['jobId', 'pieceId', 'routed', 'seq', 'taskId', 'ts', 'type', 'warning'],
  'step.recorded': ['jobId', 'seq', 'step', 'taskId', 'ts', 'type'],
  'step.answered': ['callId', 'jobId', 'result', 'seq', 'stepSeq', 'taskId', 'ts', 'type'],
  'stream.delta': ['jobId', 'reasoning', 'seq', 'taskId', 'text', 'toolCalls', 'ts', 'type'],
  'tool.progress': ['callId', 'jobId', 'message', 'name', 'progress', 'seq', 'taskId', 'total', 'ts', 'type'],
  // Issue 27: an MCP server's question to the person opened or closed (transient: it lives as long as its call).
  'mcp_prompt.changed': ['jobId', 'open', 'prompt', 'seq', 'taskId', 'ts', 'type'],
};

describe('the event contract', () => {
  it('P9.23 existing event types keep their shape; new ones are only added', () => {
    const current = Object.fromEntries(
      MaestroEvent.options.map((o) => [o.shape.type.value, Object.keys(o.shape).sort()]),
    ) as Record<string, string[]>;
    for (const [type, fields] of Object.entries(SHAPES)) expect(current[type], type).toEqual(fields);
    expect(Object.keys(current).sort()).toEqual(Object.keys(SHAPES).sort());
  });

  it('P9.02 InvokeKind is exactly UserSend, Notify, PodEvent, SystemReminder, Wakeup', () => {
    expect([...INVOKE_KINDS]).toEqual(['UserSend', 'Notify', 'PodEvent', 'SystemReminder', 'Wakeup']);
  });

  it('LLM and tool progress events, the chat steps (stored in the log) and MCP questions (they live as long as their call) are transient; the rest are persisted', () => {
    expect([...TRANSIENT_EVENT_TYPES].sort()).toEqual([
      'LlmCallEnd',
      'LlmCallStart',
      'LlmWait',
      'TurnEnd',
      'TurnStart',
      'mcp_prompt.changed',
      'step.answered',
      'step.recorded',
      'stream.delta',
      'tool.progress',
    ]);
  });
});

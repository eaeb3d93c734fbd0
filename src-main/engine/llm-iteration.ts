// runLlmIteration: one AgentTurn — the LLM layer's generation (its retries are further LlmCalls of this turn),
// streamed to the UI, logged with usage, and mapped to the loop's next step on failure.
import { assertNever } from '../../src-shared/assert-never';
import { LlmError, profileErrorCode } from '../llm/errors';
import type { LlmResult } from '../llm/types';
import { abortOf, stoppedBy } from './abort';
import { type AssistantTurn, assistantTurn } from './assistant-reply';
import type { JobRun } from './job-run';
import type { MovementResult } from './movement-result';
import type { StepContent } from './run-log';

/**
 * `reply`: the whole generation — text, reasoning, opaque provider fields, tool calls — as the backend sent it;
 * `turn`: what the engine keeps of it (assistant-reply.ts).
 */
export type IterationReply =
  | { kind: 'ok'; reply: LlmResult; turn: AssistantTurn }
  | { kind: 'stop'; result: MovementResult };

/** One AgentTurn in `movement`; its step (what the chat shows of it) is recorded when it ends, whatever the end. */
export async function runLlmIteration(run: JobRun, movement: string): Promise<IterationReply> {
  run.log.startAgentTurn(run.depth);
  run.prefetchCheckpoint();
  const step: StepContent = { movement, depth: run.depth, text: '', reasoning: '', toolCalls: [] };
  // What the person has read of the LlmCall in progress: a stop keeps it in the chat, where it was (issue 23).
  const streamed = { text: '', reasoning: '' };
  try {
    const reply = await run.llm.generate(
      { messages: run.conversation.messages, tools: run.toolSpecs, signal: run.signal },
      {
        onLlmCallStart: (info) => {
          streamed.text = '';
          streamed.reasoning = '';
          run.log.llmCallStart(info.attempt);
        },
        onCapacityWait: (wait) => run.log.llmWait(wait),
        onLlmCallEnd: (end) => {
          run.stream.flush();
          run.log.llmCallEnd(end);
        },
        onDelta: (delta) => {
          if (delta.type === 'text') streamed.text += delta.text;
          else if (delta.type === 'reasoning') streamed.reasoning += delta.text;
          run.stream.push(delta);
        },
      },
    );
    const turn = assistantTurn(reply, new Set(run.toolSpecs.map((s) => s.function.name)));
    step.text = turn.refusal ?? turn.message.content ?? '';
    step.reasoning = reply.reasoning;
    step.toolCalls = turn.toolCalls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args }));
    return { kind: 'ok', reply, turn };
  } catch (error) {
    // A cancelled generation is no failure: its step just ends where it was, with what had streamed (the chat only;
    // the transcript never gets a half-written turn).
    const cancelled = run.signal.aborted || (error instanceof LlmError && error.kind === 'aborted');
    if (cancelled) Object.assign(step, streamed);
    else step.error = error instanceof Error ? error.message : String(error);
    if (run.signal.aborted) return { kind: 'stop', result: stoppedBy(abortOf(run.signal)) };
    if (error instanceof LlmError) {
      const profileCode = profileErrorCode(error);
      const coded = profileCode ? { code: profileCode } : {};
      const llmFailed = { code: profileCode ?? 'llm_failed' } as const;
      switch (error.kind) {
        case 'aborted':
          return { kind: 'stop', result: { kind: 'cancelled', reason: error.message } };
        case 'retries_exhausted':
          return {
            kind: 'stop',
            result: { kind: 'error', message: `LLM: ${error.message}`, retryable: true, ...llmFailed },
          };
        case 'unreachable': {
          const outage = error.outageMs !== undefined ? { outageMs: error.outageMs } : {};
          return {
            kind: 'stop',
            result: { kind: 'error', message: `LLM: ${error.message}`, retryable: true, ...outage, ...coded },
          };
        }
        case 'context_overflow':
          return {
            kind: 'stop',
            result: { kind: 'error', message: `LLM: ${error.message}`, retryable: false, code: 'context_overflow' },
          };
        case 'terminal':
          return {
            kind: 'stop',
            result: { kind: 'error', message: `LLM: ${error.message}`, retryable: false, ...llmFailed },
          };
        case 'limit':
          return {
            kind: 'stop',
            result: { kind: 'error', message: `LLM: ${error.message}`, retryable: false, code: 'llm_limit' },
          };
        default:
          return assertNever(error.kind, 'LLM error kind');
      }
    }
    throw error;
  } finally {
    run.stream.flush();
    run.recordTurn(run.log.endAgentTurn(step), step.toolCalls);
  }
}

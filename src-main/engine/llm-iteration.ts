// runLlmIteration: one AgentTurn — the LLM layer's generation (its retries are further LlmCalls of this turn),
// streamed to the UI, logged with usage, and mapped to the loop's next step on failure.
import { assertNever } from '../../src-shared/assert-never';
import { LlmError, profileErrorCode } from '../llm/errors';
import type { LlmResult } from '../llm/types';
import { abortReason } from './agent-loop';
import type { JobRun } from './job-run';
import type { MovementResult } from './movement-result';

/** `reply`: the whole generation — text, reasoning, opaque provider fields, tool calls — as the backend sent it. */
export type IterationReply = { kind: 'ok'; reply: LlmResult } | { kind: 'stop'; result: MovementResult };

export async function runLlmIteration(run: JobRun): Promise<IterationReply> {
  run.log.startAgentTurn();
  try {
    const reply = await run.llm.generate(
      { messages: run.conversation.messages, tools: run.toolSpecs, signal: run.signal },
      {
        onLlmCallStart: (info) => run.log.llmCallStart(info.attempt),
        onLlmCallEnd: (end) => {
          run.stream.flush();
          run.log.llmCallEnd(end);
        },
        onDelta: (delta) => run.stream.push(delta),
      },
    );
    return { kind: 'ok', reply };
  } catch (error) {
    if (run.signal.aborted) return { kind: 'stop', result: { kind: 'cancelled', reason: abortReason(run.signal) } };
    if (error instanceof LlmError) {
      const code = profileErrorCode(error);
      const coded = code ? { code } : {};
      switch (error.kind) {
        case 'aborted':
          return { kind: 'stop', result: { kind: 'cancelled', reason: error.message } };
        case 'retries_exhausted':
          return { kind: 'stop', result: { kind: 'error', message: `LLM: ${error.message}`, retryable: true } };
        case 'unreachable': {
          const outage = error.outageMs !== undefined ? { outageMs: error.outageMs } : {};
          return {
            kind: 'stop',
            result: { kind: 'error', message: `LLM: ${error.message}`, retryable: true, ...outage, ...coded },
          };
        }
        case 'context_overflow':
        case 'terminal':
          return {
            kind: 'stop',
            result: { kind: 'error', message: `LLM: ${error.message}`, retryable: false, ...coded },
          };
        default:
          return assertNever(error.kind, 'LLM error kind');
      }
    }
    throw error;
  } finally {
    run.stream.flush();
    run.log.endAgentTurn();
  }
}

// Transcript replay (spec 3.3): the turns a Continue replays, cleaned thread by thread, concatenated oldest first.
import type { AssistantToolCall } from '../llm/types';
import { readResult } from '../tools/outcome';
import { type AssistantMessage, pairResults, type ToolMessage } from './call-pairs';
import { type ChatMessage, parseTranscript, splitThreads, type TranscriptLine } from './conversation';
import { COMPLETE, TRANSITION } from './terminal-tools';

export interface ReplayOptions {
  /** samePieceContinuation; applied to the last thread only (older threads always drop their transitions). */
  keepTransitions: boolean;
}

/** keepTransitions for a Continue: the `continuedFromJobId` job ran the piece the new job runs (P6.15). */
export function isSamePieceContinuation(previousPieceId: string | null | undefined, pieceId: string): boolean {
  return previousPieceId != null && previousPieceId === pieceId;
}

/** Parses transcript.jsonl text (a torn line is skipped) and replays it: see allReplayableThreads. */
export function replayTranscript(text: string, options: ReplayOptions): ChatMessage[] {
  return allReplayableThreads(parseTranscript(text), options);
}

/**
 * Every thread of the transcript (split at system lines; lines before the first one are ignored), each cleaned on its
 * own by replayableTurns, concatenated oldest first. keepTransitions applies to the last thread only, so when that
 * thread is empty (a crashed job: a system line alone) the one before it counts as older and loses its transitions.
 *
 * A call id already used earlier in the output (`gen_call_{n}` restarts per job) is renamed, call and result
 * together, to `${id}~${n}` with n the smallest integer ≥ 2 not used earlier. The decision depends only on what
 * precedes a pair, so appending a thread never renames an earlier pair; every other byte is kept.
 */
export function allReplayableThreads(lines: readonly TranscriptLine[], options: ReplayOptions): ChatMessage[] {
  const threads = splitThreads([...lines]);
  const used = new Set<string>();
  const out: ChatMessage[] = [];
  threads.forEach((thread, i) => {
    const keep = options.keepTransitions && i === threads.length - 1;
    const cleaned = cleanThread(
      thread.map((l) => l.message),
      keep,
    );
    out.push(...renameCollisions(cleaned, used));
  });
  return out;
}

/**
 * One thread's replayable turns: its system messages dropped; `complete` kept (with its result) only when the result
 * starts with `Error`, otherwise dropped with the transitions co-emitted in its assistant message; answered
 * `transition`s kept only when keepTransitions; answered regular calls kept; calls without a result, results without
 * a call and assistant messages left with neither text nor calls removed (a message keeping text loses its calls).
 * A result answers a call with its id in the latest assistant message that used the id, in call order.
 */
export function replayableTurns(thread: readonly ChatMessage[], keepTransitions: boolean): ChatMessage[] {
  return cleanThread(thread, keepTransitions).messages;
}

interface CleanThread {
  messages: ChatMessage[];
  /** The call each kept result answers (by identity; ids may repeat inside a thread). */
  callOf: Map<ToolMessage, AssistantToolCall>;
}

function cleanThread(input: readonly ChatMessage[], keepTransitions: boolean): CleanThread {
  const thread = input.filter(wellFormed);
  const answers = pairResults(thread);
  const kept = new Set<AssistantToolCall>();
  for (const m of thread) {
    if (m.role !== 'assistant' || !m.tool_calls) continue;
    const calls = m.tool_calls;
    const completeDropped = calls.some((c) => c.function.name === COMPLETE && !isRejected(answers.get(c)));
    for (const c of calls) {
      const result = answers.get(c);
      if (!result) continue;
      if (c.function.name === COMPLETE ? isRejected(result) : c.function.name !== TRANSITION) kept.add(c);
      else if (keepTransitions && !completeDropped) kept.add(c);
    }
  }

  const messages: ChatMessage[] = [];
  const callOf = new Map<ToolMessage, AssistantToolCall>();
  for (const m of thread) {
    if (m.role === 'system') continue;
    if (m.role === 'assistant') {
      const message = keptCalls(m, kept);
      if (message) messages.push(message);
    } else if (m.role === 'tool') {
      const call = answers.result(m);
      if (call && kept.has(call)) {
        messages.push(m);
        callOf.set(m, call);
      }
    } else messages.push(m);
  }
  return { messages, callOf };
}

/** A line that parsed but does not have a chat message's shape is skipped like a torn one. */
function wellFormed(m: ChatMessage): boolean {
  switch (m.role) {
    case 'assistant':
      return (
        (m.content == null || typeof m.content === 'string') &&
        (m.tool_calls === undefined ||
          (Array.isArray(m.tool_calls) &&
            m.tool_calls.every((c) => typeof c?.id === 'string' && typeof c.function?.name === 'string')))
      );
    case 'tool':
      return typeof m.tool_call_id === 'string' && typeof m.content === 'string';
    default:
      return true;
  }
}

/** A call whose recorded result is a failure (spec 3.3: read from its `Error…` text). */
const isRejected = (result: ToolMessage | undefined): boolean => result !== undefined && !readResult(result.content).ok;

/** The message with only its kept calls; null when nothing (no text, no call) is left. */
function keptCalls(m: AssistantMessage, kept: Set<AssistantToolCall>): AssistantMessage | null {
  const calls = (m.tool_calls ?? []).filter((c) => kept.has(c));
  if (calls.length > 0) return calls.length === m.tool_calls?.length ? m : { ...m, tool_calls: calls };
  if (!m.content?.trim()) return null;
  if (!m.tool_calls) return m;
  const { tool_calls: _dropped, ...text } = m;
  return text;
}

/** Renames pairs whose id is in `used` (ids earlier in the output) and adds every emitted id to it. */
function renameCollisions({ messages, callOf }: CleanThread, used: Set<string>): ChatMessage[] {
  const renamed = new Map<AssistantToolCall, string>();
  return messages.map((m) => {
    if (m.role === 'tool') {
      const call = callOf.get(m);
      const id = call && renamed.get(call);
      return id ? { ...m, tool_call_id: id } : m;
    }
    if (m.role !== 'assistant' || !m.tool_calls) return m;
    let changed = false;
    const calls = m.tool_calls.map((c) => {
      if (!used.has(c.id)) {
        used.add(c.id);
        return c;
      }
      let n = 2;
      while (used.has(`${c.id}~${n}`)) n++;
      const id = `${c.id}~${n}`;
      used.add(id);
      renamed.set(c, id);
      changed = true;
      return { ...c, id };
    });
    return changed ? { ...m, tool_calls: calls } : m;
  });
}

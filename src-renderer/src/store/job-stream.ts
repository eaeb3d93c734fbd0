// The live progress of one task's running job, folded from pushed events: the streamed text and reasoning of each
// AgentTurn, its tool calls, the movement and the LLM state. It is transient: persisted comments replace it.

import { ruleLabel } from '../../../src-shared/auto-prompter';
import type { Comment, Job } from '../../../src-shared/entities';
import type { MaestroEvent } from '../../../src-shared/events';

/** What the model is doing now, for the indicator. */
/** `capacity`: the call waits for a place under its profile's limit; `rate_limited`: for the server's pause. */
export type LlmState = 'waiting' | 'capacity' | 'rate_limited' | 'streaming' | 'retrying' | 'tools' | 'idle';

export type ToolCallStatus = 'streaming' | 'running' | 'ok' | 'error';

export interface StreamToolCall {
  /** The index in its LlmCall's reply; unique within the turn. */
  index: number;
  name: string;
  arguments: string;
  status: ToolCallStatus;
  /** The start of the tool result, once finished. */
  preview: string | null;
  /** A `delegate` call: the sub-agent's own turns, streamed while the call runs (shown nested in it). */
  nested?: StreamTurn[];
  /** An Auto Prompter rule fired on this call (P8.07): its allowlisted fields only. */
  policy?: { action: PolicyEvent['action']; rule: string };
  /** How far the running call has come, as its tool last reported (an MCP server's progress). */
  progress?: { progress: number; total: number | null; message: string | null };
}

type PolicyEvent = Extract<MaestroEvent, { type: 'policy.fired' }>;

/** The engine tool that runs a sub-agent; while it runs, every generation event of the job is the sub-agent's. */
export const DELEGATE_TOOL = 'delegate';

/** One AgentTurn as it streams: LlmCall boundaries stay inside it, a retry replaces the partial text (P9.19). */
export interface StreamTurn {
  /**
   * Who the turn is among all the turns of its job, for as long as the window is open: its TurnStart's time and count
   * (a job that resumes after an approval counts its turns from 1 again; the time tells them apart), or the time of
   * the first event seen of a turn joined mid-way. The feed keys the turn's rows, and the step that records it, by it.
   */
  id: string;
  turnCount: number;
  /** The movement the turn started in (the feed marks where the movement changes); null when joined mid-turn. */
  movement: string | null;
  text: string;
  reasoning: string;
  toolCalls: StreamToolCall[];
  /** LlmCalls made in this turn so far, retries included. */
  llmCalls: number;
  /** Partial generations thrown away because their LlmCall was retried. */
  discarded: number;
  /** The step the turn was recorded as, once its generation ended: the chat shows the step instead. */
  stepId: string | null;
}

export interface JobStream {
  jobId: string;
  llm: LlmState;
  attempt: number;
  movement: string | null;
  turns: StreamTurn[];
  /** The job was stopped (cancelled): what streamed stays where it was, marked so, until its step replaces it. */
  stopped?: true;
}

/** Comment kinds that end a job's generation: when one arrives, the stream it replaces goes. */
export const CLOSING_KINDS: readonly Comment['kind'][] = ['result', 'question', 'error'];

/** The event types this fold reads. */
export type StreamEvent = Extract<
  MaestroEvent,
  {
    type:
      | 'TurnStart'
      | 'TurnEnd'
      | 'LlmCallStart'
      | 'LlmWait'
      | 'LlmCallEnd'
      | 'movement.entered'
      | 'tool.finished'
      | 'tool.progress'
      | 'policy.fired'
      | 'step.recorded'
      | 'stream.delta';
  }
>;

export function emptyStream(jobId: string): JobStream {
  return { jobId, llm: 'waiting', attempt: 1, movement: null, turns: [] };
}

/** `stream` after one generation event of its job; a different job's event starts a fresh stream. */
export function foldStreamEvent(current: JobStream | undefined, event: StreamEvent): JobStream {
  const jobId = event.jobId ?? current?.jobId ?? '';
  const stream = current && current.jobId === jobId ? current : emptyStream(jobId);
  // A step says its own depth: the job's turn, or a sub-agent's inside the running delegate call.
  if (event.type === 'step.recorded')
    return { ...stream, turns: markRecorded(stream.turns, event.step.depth, event.step.id, event.ts) };
  const host = runningDelegate(stream);
  if (host && event.type !== 'movement.entered' && !endsDelegate(host, event))
    return foldIntoDelegate(stream, host, event);
  switch (event.type) {
    case 'movement.entered':
      return { ...stream, movement: event.movement };
    case 'TurnStart': {
      // A turn this stream has already (sent again to a window that rejoined mid-stream) starts over: the events
      // after it rebuild it whole.
      // A turn before it is recorded by now, though its step may have come only with a page read after a dropped
      // connection: it is never shown live again (the page's step shows it).
      const kept = stream.turns
        .filter((turn) => turn.turnCount < event.turnCount)
        .map((turn) => (turn.stepId === null ? { ...turn, stepId: UNSEEN_STEP } : turn));
      return {
        ...stream,
        llm: 'waiting',
        turns: [...kept, newTurn(`${event.ts}#${event.turnCount}`, event.turnCount, stream.movement)],
      };
    }
    case 'LlmCallStart': {
      const retry = event.attempt > 1;
      return {
        ...stream,
        llm: retry ? 'retrying' : 'waiting',
        attempt: event.attempt,
        turns: withLastTurn(
          stream.turns,
          (turn) =>
            retry
              ? {
                  ...turn,
                  llmCalls: turn.llmCalls + 1,
                  discarded: turn.discarded + (turn.text || turn.reasoning || turn.toolCalls.length ? 1 : 0),
                  text: '',
                  reasoning: '',
                  toolCalls: turn.toolCalls.filter((c) => c.status === 'ok' || c.status === 'error'),
                }
              : { ...turn, llmCalls: turn.llmCalls + 1 },
          event.ts,
        ),
      };
    }
    case 'LlmWait':
      return { ...stream, llm: event.reason === 'limit' ? 'capacity' : 'rate_limited' };
    case 'stream.delta':
      return {
        ...stream,
        llm: 'streaming',
        turns: withLastTurn(
          stream.turns,
          (turn) => ({
            ...turn,
            text: turn.text + event.text,
            reasoning: turn.reasoning + event.reasoning,
            toolCalls: foldToolDeltas(turn.toolCalls, event.toolCalls),
          }),
          event.ts,
        ),
      };
    case 'LlmCallEnd': {
      // A retryable failure is followed by the next attempt's LlmCallStart; any other failure ends the generation.
      if (event.outcome === 'retryable_error') return { ...stream, llm: 'retrying' };
      if (event.outcome !== 'ok') return { ...stream, llm: 'idle' };
      const calls = lastTurn(stream.turns)?.toolCalls ?? [];
      return {
        ...stream,
        llm: calls.some((c) => c.status === 'streaming') ? 'tools' : 'idle',
        turns: withLastTurn(
          stream.turns,
          (turn) => ({
            ...turn,
            toolCalls: turn.toolCalls.map((c) => (c.status === 'streaming' ? { ...c, status: 'running' } : c)),
          }),
          event.ts,
        ),
      };
    }
    case 'TurnEnd':
      return stream;
    case 'policy.fired':
      return { ...stream, turns: markPolicy(stream.turns, event) };
    case 'tool.progress':
      return { ...stream, turns: markProgress(stream.turns, event) };
    case 'tool.finished': {
      const turns = finishToolCall(stream.turns, event);
      const pending = lastTurn(turns)?.toolCalls.some((c) => c.status === 'running' || c.status === 'streaming');
      return { ...stream, turns, llm: pending ? 'tools' : stream.llm === 'tools' ? 'idle' : stream.llm };
    }
    default: {
      const unknown: never = event;
      throw new Error(`unhandled stream event ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * The stream after a change of its job: a run starting again (claim, resume after approval, retry) begins a fresh
 * stream; a job that stops generating leaves its text until the persisted comment arrives; a cancelled one keeps what
 * it streamed, stopped (the person was reading it); a job queued again clears.
 */
export function foldStreamJob(current: JobStream | undefined, job: Job): JobStream | undefined {
  if (job.status === 'running') {
    // The claim's job.changed comes before the run's first event; a run that had stopped starts afresh.
    return current && current.jobId === job.id && current.llm !== 'idle' ? current : emptyStream(job.id);
  }
  if (!current || current.jobId !== job.id) return current;
  if (job.status === 'queued') return undefined;
  if (job.status === 'cancelled') return current.stopped ? current : { ...current, llm: 'idle', stopped: true };
  return { ...current, llm: 'idle' };
}

/** True when `comment` is the persisted item that replaces the stream (P7.16). */
export function closesStream(stream: JobStream | undefined, comment: Comment): boolean {
  return !!stream && comment.jobId === stream.jobId && CLOSING_KINDS.includes(comment.kind);
}

/** The `delegate` call of the last turn that is running: the parent waits on it while its sub-agent streams. */
function runningDelegate(stream: JobStream): StreamToolCall | undefined {
  return lastTurn(stream.turns)?.toolCalls.find((c) => c.name === DELEGATE_TOOL && c.status === 'running');
}

/** The delegate call's own result (not that of a delegate running inside the sub-agent, one level deeper). */
function endsDelegate(host: StreamToolCall, event: StreamEvent): boolean {
  if (event.type !== 'tool.finished' || event.name !== DELEGATE_TOOL) return false;
  const inner = lastTurn(host.nested ?? [])?.toolCalls.some((c) => c.name === DELEGATE_TOOL && c.status === 'running');
  return !inner;
}

/** Folds a sub-agent's event into its delegate call's nested turns; the indicator follows the sub-agent. */
function foldIntoDelegate(stream: JobStream, host: StreamToolCall, event: StreamEvent): JobStream {
  const inner = foldStreamEvent(
    { jobId: stream.jobId, llm: stream.llm, attempt: stream.attempt, movement: null, turns: host.nested ?? [] },
    event,
  );
  return {
    ...stream,
    llm: inner.llm === 'idle' ? 'tools' : inner.llm,
    turns: withLastTurn(
      stream.turns,
      (turn) => ({
        ...turn,
        toolCalls: turn.toolCalls.map((c) => (c === host ? { ...c, nested: inner.turns } : c)),
      }),
      event.ts,
    ),
  };
}

function newTurn(id: string, turnCount: number, movement: string | null = null): StreamTurn {
  return { id, turnCount, movement, text: '', reasoning: '', toolCalls: [], llmCalls: 0, discarded: 0, stepId: null };
}

/** The step of a turn recorded while this window was not listening: its step comes with the page, not the stream. */
export const UNSEEN_STEP = '';

/** The last turn `depth` delegate calls deep, marked recorded as `stepId`. */
function markRecorded(turns: StreamTurn[], depth: number, stepId: string, ts: string): StreamTurn[] {
  if (depth === 0) return withLastTurn(turns, (turn) => ({ ...turn, stepId }), ts);
  const host = lastTurn(turns)?.toolCalls.find((c) => c.name === DELEGATE_TOOL && c.status === 'running');
  if (!host) return turns;
  return withLastTurn(
    turns,
    (turn) => ({
      ...turn,
      toolCalls: turn.toolCalls.map((c) =>
        c === host ? { ...c, nested: markRecorded(c.nested ?? [], depth - 1, stepId, ts) } : c,
      ),
    }),
    ts,
  );
}

function lastTurn(turns: StreamTurn[]): StreamTurn | undefined {
  return turns.at(-1);
}

/**
 * Applies `change` to the last turn, opening one when events arrive before any TurnStart (joined mid-turn), named by
 * the time of the event that opened it (`ts`).
 */
function withLastTurn(turns: StreamTurn[], change: (turn: StreamTurn) => StreamTurn, ts: string): StreamTurn[] {
  const last = lastTurn(turns);
  if (!last) return [change(newTurn(`${ts}#0`, 0))];
  return [...turns.slice(0, -1), change(last)];
}

type Delta = Extract<StreamEvent, { type: 'stream.delta' }>;

function foldToolDeltas(calls: StreamToolCall[], deltas: Delta['toolCalls']): StreamToolCall[] {
  if (deltas.length === 0) return calls;
  const next = [...calls];
  for (const delta of deltas) {
    const at = next.findIndex((c) => c.index === delta.index && c.status === 'streaming');
    if (at === -1) {
      next.push({
        index: delta.index,
        name: delta.name ?? '',
        arguments: delta.arguments,
        status: 'streaming',
        preview: null,
      });
    } else {
      const call = next[at] as StreamToolCall;
      next[at] = { ...call, name: delta.name ?? call.name, arguments: call.arguments + delta.arguments };
    }
  }
  return next;
}

/** Shows a fired rule on the call it fired for: the first unfinished call of that tool in the current turn. */
function markPolicy(turns: StreamTurn[], event: PolicyEvent): StreamTurn[] {
  const policy = { action: event.action, rule: ruleLabel(event.ruleIndex, event.ruleId) };
  const turn = lastTurn(turns);
  const at = turn?.toolCalls.findIndex(
    (c) => c.name === event.tool && (c.status === 'running' || c.status === 'streaming'),
  );
  if (!turn || at === undefined || at === -1) return turns;
  return withLastTurn(
    turns,
    (t) => ({
      ...t,
      toolCalls: t.toolCalls.map((c, i) => (i === at ? { ...c, policy } : c)),
    }),
    event.ts,
  );
}

/** Shows a running call's latest progress: the first running call of that tool (a finished one keeps its result). */
function markProgress(turns: StreamTurn[], event: Extract<StreamEvent, { type: 'tool.progress' }>): StreamTurn[] {
  const turn = lastTurn(turns);
  const at = turn?.toolCalls.findIndex((c) => c.name === event.name && c.status === 'running');
  if (!turn || at === undefined || at === -1) return turns;
  const progress = { progress: event.progress, total: event.total, message: event.message };
  return withLastTurn(
    turns,
    (t) => ({
      ...t,
      toolCalls: t.toolCalls.map((c, i) => (i === at ? { ...c, progress } : c)),
    }),
    event.ts,
  );
}

/**
 * Marks the first unfinished call of that name finished; a call never seen streaming is added as finished. A denied
 * call keeps no preview (its text is written for the model; the step words the denial) and, never seen streaming (a
 * call denied while the job was parked), is not added: its step shows it.
 */
function finishToolCall(turns: StreamTurn[], event: Extract<StreamEvent, { type: 'tool.finished' }>): StreamTurn[] {
  const status: ToolCallStatus = event.ok ? 'ok' : 'error';
  const preview = event.denial ? null : event.preview;
  const unfinished = (c: StreamToolCall) =>
    c.name === event.name && (c.status === 'running' || c.status === 'streaming');
  if (event.denial && !lastTurn(turns)?.toolCalls.some(unfinished)) return turns;
  return withLastTurn(
    turns,
    (turn) => {
      const at = turn.toolCalls.findIndex(unfinished);
      if (at === -1) {
        const index = turn.toolCalls.length;
        return {
          ...turn,
          toolCalls: [...turn.toolCalls, { index, name: event.name, arguments: '', status, preview }],
        };
      }
      return {
        ...turn,
        toolCalls: turn.toolCalls.map((c, i) => (i === at ? { ...c, status, preview } : c)),
      };
    },
    event.ts,
  );
}

// The turn each running job is generating, as the events that built it: what a window that joins mid-stream (a
// reload, an SSE connection that dropped) is sent first, so that it shows the turn whole — its deltas are transient,
// never in the event log, and the turn is not in the conversation log until its generation ends.
//
// Per job it keeps the events since its latest top-level TurnStart (a delegated sub-agent's turns are inside it),
// the deltas in a row merged into one, and the movement it runs in; a job that stops running drops them.
import type { MaestroEvent } from '../../src-shared/events';

type Delta = Extract<MaestroEvent, { type: 'stream.delta' }>;

/** The events of a turn the chat folds (src-renderer/src/store/job-stream.ts). */
const TURN_EVENTS: ReadonlySet<MaestroEvent['type']> = new Set([
  'TurnStart',
  'TurnEnd',
  'LlmCallStart',
  'LlmWait',
  'LlmCallEnd',
  'stream.delta',
  'tool.finished',
  'policy.fired',
  'step.recorded',
]);

interface LiveJob {
  taskId: string;
  movement?: MaestroEvent;
  turn: MaestroEvent[];
}

export class LiveTurns {
  private readonly jobs = new Map<string, LiveJob>();

  /** Every event, in the order subscribers get them. */
  fold(event: MaestroEvent): void {
    const jobId = event.jobId;
    if (!jobId) return;
    if (event.type === 'job.changed') {
      if (event.job.status !== 'running') this.jobs.delete(jobId);
      return;
    }
    if (event.type === 'movement.entered') {
      this.jobs.set(jobId, { taskId: event.taskId, movement: event, turn: [] });
      return;
    }
    if (event.type === 'TurnStart' && !event.depth) {
      const movement = this.jobs.get(jobId)?.movement;
      this.jobs.set(jobId, { taskId: event.taskId, movement, turn: [event] });
      return;
    }
    const live = this.jobs.get(jobId);
    if (!live || live.turn.length === 0 || !TURN_EVENTS.has(event.type)) return;
    const last = live.turn.at(-1);
    if (event.type === 'stream.delta' && last?.type === 'stream.delta')
      live.turn[live.turn.length - 1] = merge(last, event);
    else live.turn.push(event);
  }

  /** The events to send a window that joins now, oldest first: for one task, or for all. */
  replay(taskId?: string): MaestroEvent[] {
    const events: MaestroEvent[] = [];
    for (const live of this.jobs.values()) {
      if (taskId && live.taskId !== taskId) continue;
      if (live.movement) events.push(live.movement);
      events.push(...live.turn);
    }
    return events;
  }
}

/** Two deltas of one job as one: the texts joined, each tool call's argument pieces joined under its index. */
function merge(a: Delta, b: Delta): Delta {
  const calls = new Map(a.toolCalls.map((c) => [c.index, { ...c }]));
  for (const c of b.toolCalls) {
    const known = calls.get(c.index);
    if (!known) calls.set(c.index, { ...c });
    else calls.set(c.index, { ...known, ...c, arguments: known.arguments + c.arguments });
  }
  return { ...b, text: a.text + b.text, reasoning: a.reasoning + b.reasoning, toolCalls: [...calls.values()] };
}

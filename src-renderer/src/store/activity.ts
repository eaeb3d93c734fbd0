// The events of one task's activity timeline: which ones it keeps, and how the persisted list and the live stream
// merge (persisted events once per seq, transient ones as they came). The rows they make: activity-rows.ts.
import type { MaestroEvent } from '../../../src-shared/events';

/** The filter groups; `error` is a group of its own that also holds failed rows of every other group. */
export const ACTIVITY_KINDS = ['job', 'llm', 'tool', 'approval', 'comment', 'notification', 'error'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/**
 * Events that make no row: the streamed text, a call's progress and the turn/call starts (their ends say more), the chat's steps, an
 * MCP server's question (its card shows while it is open; the call's result says how it ended), and
 * the list's own news (a rename or archive shows in the list; a deleted task has no timeline left).
 */
type Unshown =
  | 'stream.delta'
  | 'tool.progress'
  | 'TurnStart'
  | 'TurnEnd'
  | 'LlmCallStart'
  | 'LlmWait'
  | 'step.recorded'
  | 'step.answered'
  | 'mcp_prompt.changed'
  | 'task.changed'
  | 'task.deleted';
export type ActivityEvent = Exclude<MaestroEvent, { type: Unshown }>;

export function isActivityEvent(event: MaestroEvent): event is ActivityEvent {
  switch (event.type) {
    case 'stream.delta':
    case 'tool.progress':
    case 'TurnStart':
    case 'TurnEnd':
    case 'LlmCallStart':
    case 'LlmWait':
    case 'step.recorded':
    case 'step.answered':
    case 'mcp_prompt.changed':
    case 'task.changed':
    case 'task.deleted':
      return false;
    default:
      return true;
  }
}

/** Most events kept per task; the oldest go first. */
export const ACTIVITY_LIMIT = 2000;

/** `events` with `event` appended, unless it is a persisted event already held (same seq) or makes no row. */
export function appendActivity(events: readonly ActivityEvent[], event: MaestroEvent): readonly ActivityEvent[] {
  if (!isActivityEvent(event)) return events;
  if (event.seq > 0 && events.some((e) => e.seq === event.seq)) return events;
  return capped([...events, event]);
}

/**
 * The loaded list folded into what arrived live meanwhile: the union of persisted events in seq order; each transient
 * one that arrived live right after the persisted event it came after (or, if none came before it, after the last
 * loaded event no later than it); each transient one the list brought (the LlmCalls rebuilt from the log) after the
 * last persisted event no later than it, unless it also arrived live.
 */
export function mergeActivity(current: readonly ActivityEvent[], loaded: readonly MaestroEvent[]): ActivityEvent[] {
  const persisted = new Map<number, ActivityEvent>();
  for (const e of loaded) if (isActivityEvent(e) && e.seq > 0) persisted.set(e.seq, e);
  for (const e of current) if (e.seq > 0) persisted.set(e.seq, e);
  const ordered = [...persisted.values()].sort((a, b) => a.seq - b.seq);
  const byTime = latestSeqAt(ordered);

  const after = new Map<number, ActivityEvent[]>();
  const place = (at: number, e: ActivityEvent) => after.set(at, [...(after.get(at) ?? []), e]);
  const live = new Set<string>();
  let anchor: number | null = null;
  for (const e of current) {
    if (e.seq > 0) {
      anchor = e.seq;
      continue;
    }
    live.add(transientKey(e));
    place(anchor ?? byTime(e), e);
  }
  for (const e of loaded) {
    if (isActivityEvent(e) && e.seq === 0 && !live.has(transientKey(e))) place(byTime(e), e);
  }
  for (const list of after.values()) list.sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));

  const merged: ActivityEvent[] = [...(after.get(0) ?? [])];
  for (const e of ordered) merged.push(e, ...(after.get(e.seq) ?? []));
  return capped(merged);
}

/**
 * For a transient event, the highest seq among the persisted events no later than it (0: none): the persisted events
 * sorted by time with the running highest seq, searched by halves, so placing thousands of LlmCalls stays cheap.
 */
function latestSeqAt(persisted: readonly ActivityEvent[]): (e: ActivityEvent) => number {
  const byTs = [...persisted].sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
  const highest: number[] = [];
  for (const p of byTs) highest.push(Math.max(highest.at(-1) ?? 0, p.seq));
  return (e) => {
    let lo = 0;
    let hi = byTs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((byTs[mid] as ActivityEvent).ts <= e.ts) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? 0 : (highest[lo - 1] as number);
  };
}

/** What tells two copies of a transient event apart from two events: an LlmCall by its job, count and attempt. */
function transientKey(e: ActivityEvent): string {
  return e.type === 'LlmCallEnd' ? `${e.jobId}|${e.llmCallCount}|${e.attempt}` : `${e.type}|${e.jobId}|${e.ts}`;
}

function capped<T>(events: T[]): T[] {
  return events.length > ACTIVITY_LIMIT ? events.slice(events.length - ACTIVITY_LIMIT) : events;
}

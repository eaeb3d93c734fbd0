// The rows of one task's activity timeline, oldest first: one per event, repeated job updates in the same state folded
// into one row that says how long the job stayed in it; and the filter by group.
import { english, type Translate } from '../i18n/translate';
import type { ActivityEvent, ActivityKind } from './activity';
import { type LlmCallFacts, rowFacts } from './activity-row-facts';

export interface ActivityRow {
  key: string;
  kind: Exclude<ActivityKind, 'error'>;
  /** A failure: shown under "Errors" too. */
  error: boolean;
  type: ActivityEvent['type'];
  ts: string;
  jobId: string | null;
  /** Persisted (has a seq) or live only. */
  live: boolean;
  title: string;
  detail: string | null;
  /** A job status, tool ok/failed, a request status, an LLM outcome: for styling and tests. */
  status: string | null;
  /** For a job state: how long the job stayed in it (to its next state); null while it still is. */
  durationMs: number | null;
  llm: LlmCallFacts | null;
}

/** The rows of a task's events, oldest first, their text in `t`'s language. Repeated job updates in the same state
 * make one row. */
export function activityRows(events: readonly ActivityEvent[], t: Translate = english): ActivityRow[] {
  const rows: ActivityRow[] = [];
  // By job id: its latest state row, and the state's identity (status, wait reason, attempt).
  const lastState = new Map<string, { row: ActivityRow; state: string }>();
  events.forEach((event, index) => {
    const key = event.seq > 0 ? `s${event.seq}` : `t${index}`;
    if (event.type !== 'job.changed') {
      rows.push(makeRow(event, key, t));
      return;
    }
    const { job } = event;
    const state = `${job.status}|${job.waitReason ?? ''}|${job.attempt}`;
    const previous = lastState.get(job.id);
    if (previous?.state === state) return;
    if (previous) previous.row.durationMs = Math.max(0, Date.parse(event.ts) - Date.parse(previous.row.ts));
    const row = makeRow(event, key, t);
    lastState.set(job.id, { row, state });
    rows.push(row);
  });
  return rows;
}

function makeRow(event: ActivityEvent, key: string, t: Translate): ActivityRow {
  return {
    key,
    type: event.type,
    ts: event.ts,
    jobId: event.jobId,
    live: event.seq === 0,
    durationMs: null,
    llm: null,
    ...rowFacts(event, t),
  };
}

/** Whether `row` shows under the enabled groups: its own group, or "Errors" for a failure. */
function rowVisible(row: ActivityRow, enabled: ReadonlySet<ActivityKind>): boolean {
  return enabled.has(row.kind) || (row.error && enabled.has('error'));
}

export function filterRows(rows: readonly ActivityRow[], enabled: ReadonlySet<ActivityKind>): ActivityRow[] {
  return rows.filter((row) => rowVisible(row, enabled));
}

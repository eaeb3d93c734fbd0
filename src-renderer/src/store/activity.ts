// The activity timeline of one task as pure functions: which events it keeps, how the persisted list and the live
// stream merge (persisted events once per seq, transient ones as they came), the rows they make, and the filter.
import { ruleLabel } from '../../../src-shared/auto-prompter';
import type { JobStatus, WaitReason } from '../../../src-shared/entities';
import type { MaestroEvent } from '../../../src-shared/events';
import { english, type Translate } from '../i18n/translate';

/** The filter groups; `error` is a group of its own that also holds failed rows of every other group. */
export const ACTIVITY_KINDS = ['job', 'llm', 'tool', 'approval', 'comment', 'notification', 'error'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** Events that make no row: the streamed text and the turn/call starts (their ends say more). */
type Unshown = 'stream.delta' | 'TurnStart' | 'TurnEnd' | 'LlmCallStart';
export type ActivityEvent = Exclude<MaestroEvent, { type: Unshown }>;

export function isActivityEvent(event: MaestroEvent): event is ActivityEvent {
  switch (event.type) {
    case 'stream.delta':
    case 'TurnStart':
    case 'TurnEnd':
    case 'LlmCallStart':
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
 * The loaded list folded into what arrived live meanwhile: the union of persisted events in seq order; each
 * transient one right after the persisted event it came after (or, if none came before it, after the last loaded
 * event no later than it).
 */
export function mergeActivity(current: readonly ActivityEvent[], loaded: readonly MaestroEvent[]): ActivityEvent[] {
  const persisted = new Map<number, ActivityEvent>();
  for (const e of loaded) if (isActivityEvent(e) && e.seq > 0) persisted.set(e.seq, e);
  for (const e of current) if (e.seq > 0) persisted.set(e.seq, e);
  const ordered = [...persisted.values()].sort((a, b) => a.seq - b.seq);

  const after = new Map<number, ActivityEvent[]>();
  let anchor: number | null = null;
  for (const e of current) {
    if (e.seq > 0) {
      anchor = e.seq;
      continue;
    }
    const at = anchor ?? ordered.reduce((best, p) => (p.ts <= e.ts ? Math.max(best, p.seq) : best), 0);
    after.set(at, [...(after.get(at) ?? []), e]);
  }

  const merged: ActivityEvent[] = [...(after.get(0) ?? [])];
  for (const e of ordered) merged.push(e, ...(after.get(e.seq) ?? []));
  return capped(merged);
}

function capped<T>(events: T[]): T[] {
  return events.length > ACTIVITY_LIMIT ? events.slice(events.length - ACTIVITY_LIMIT) : events;
}

export interface LlmCallFacts {
  llmCallCount: number;
  attempt: number;
  outcome: string;
  latencyMs: number;
  ttftMs: number | null;
  promptTokens: number;
  cachedPromptTokens: number;
  completionTokens: number;
}

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
    if (event.type === 'job.changed') {
      const { job } = event;
      const state = `${job.status}|${job.waitReason ?? ''}|${job.attempt}`;
      const previous = lastState.get(job.id);
      if (previous?.state === state) return;
      if (previous) previous.row.durationMs = Math.max(0, Date.parse(event.ts) - Date.parse(previous.row.ts));
      const row = makeRow(event, key, t);
      lastState.set(job.id, { row, state });
      rows.push(row);
      return;
    }
    rows.push(makeRow(event, key, t));
  });
  return rows;
}

function makeRow(event: ActivityEvent, key: string, t: Translate): ActivityRow {
  const base = {
    key,
    type: event.type,
    ts: event.ts,
    jobId: event.jobId,
    live: event.seq === 0,
    durationMs: null,
    llm: null,
  };
  switch (event.type) {
    case 'task.created':
      return {
        ...base,
        kind: 'job',
        error: false,
        title: t('activity.taskCreated'),
        detail: event.task.title,
        status: null,
      };
    case 'job.changed': {
      const { job } = event;
      return {
        ...base,
        kind: 'job',
        error: job.status === 'failed' || (job.status === 'retry' && job.error !== null),
        title: t(`activity.status.${job.status}`),
        detail: jobDetail(event.job, t),
        status: job.status,
      };
    }
    case 'movement.entered':
      return {
        ...base,
        kind: 'job',
        error: false,
        title: t('activity.movement', { movement: event.movement }),
        detail: null,
        status: null,
      };
    case 'InvokeStart':
      return {
        ...base,
        kind: 'llm',
        error: false,
        title: t('activity.invoke', { kind: event.kind }),
        detail: null,
        status: null,
      };
    case 'LlmCallEnd': {
      const llm: LlmCallFacts = {
        llmCallCount: event.llmCallCount,
        attempt: event.attempt,
        outcome: event.outcome,
        latencyMs: event.latencyMs,
        ttftMs: event.ttftMs,
        promptTokens: event.usage.promptTokens,
        cachedPromptTokens: event.cachedPromptTokens,
        completionTokens: event.usage.completionTokens,
      };
      return {
        ...base,
        kind: 'llm',
        error: event.outcome !== 'ok',
        title: t('activity.llmCall', { n: event.llmCallCount }),
        detail: llmDetail(llm, t),
        status: event.outcome,
        llm,
      };
    }
    case 'tool.finished':
      return {
        ...base,
        kind: 'tool',
        error: !event.ok,
        title: event.name,
        detail: event.preview,
        status: event.ok ? 'ok' : 'failed',
      };
    case 'tool_request.changed': {
      const { request } = event;
      const key =
        request.status === 'pending'
          ? 'activity.tool.requested'
          : request.status === 'approved'
            ? request.scope === 'task'
              ? 'activity.tool.approvedTask'
              : 'activity.tool.approvedOnce'
            : 'activity.tool.denied';
      return {
        ...base,
        kind: 'approval',
        error: false,
        title: t(key, { tool: request.tool }),
        detail: request.summary,
        status: request.status,
      };
    }
    case 'package_request.changed': {
      const { request } = event;
      const name = `${request.manager} ${request.name}${request.version ? `@${request.version}` : ''}`;
      return {
        ...base,
        kind: 'approval',
        error: false,
        title: t(`activity.package.${request.status === 'pending' ? 'requested' : request.status}`, { name }),
        detail: request.reason,
        status: request.status,
      };
    }
    case 'comment.created': {
      const { comment } = event;
      return {
        ...base,
        kind: 'comment',
        error: comment.kind === 'error',
        title: `${comment.author} ${comment.kind}`,
        detail: comment.body,
        status: comment.kind,
      };
    }
    case 'job.metrics':
      return {
        ...base,
        kind: 'job',
        error: false,
        title: t('activity.jobMetrics', { status: event.status, seconds: (event.durationMs / 1000).toFixed(1) }),
        detail: t('activity.jobMetricsDetail', {
          attempt: event.attempt,
          calls: event.usage.llmCalls,
          prompt: event.usage.promptTokens,
          cached: event.usage.cachedPromptTokens,
          completion: event.usage.completionTokens,
        }),
        status: event.status,
      };
    case 'prompt.guarded':
      return {
        ...base,
        kind: 'llm',
        error: event.outcome === 'overflow',
        title: t('activity.guard', { outcome: event.outcome }),
        detail: t('activity.guardDetail', {
          steps: event.steps.join(', ') || t('activity.guardNoSteps'),
          before: event.tokensBefore,
          after: event.tokensAfter,
        }),
        status: event.outcome,
      };
    case 'policy.fired':
      // Made from the event's allowlisted fields only: the rule, the action and the tool name (P8.10).
      return {
        ...base,
        kind: 'tool',
        error: false,
        title: t(`activity.policy.${event.action}`, { tool: event.tool }),
        detail: t('activity.policy.rule', { rule: ruleLabel(event.ruleIndex, event.ruleId) }),
        status: event.action,
      };
    case 'task.routed':
      return {
        ...base,
        kind: 'job',
        error: false,
        title: t(event.routed ? 'activity.routed' : 'activity.routedDefault', { piece: event.pieceId }),
        detail: event.warning,
        status: event.routed ? 'routed' : 'default',
      };
    case 'webhook.failed':
      return {
        ...base,
        kind: 'notification',
        error: true,
        title: t('activity.webhookFailed', { webhook: event.webhook, event: event.event }),
        detail: t('activity.webhookFailedDetail', { reason: event.reason, attempts: event.attempts }),
        status: 'failed',
      };
    default: {
      const unknown: never = event;
      throw new Error(`unhandled activity event ${JSON.stringify(unknown)}`);
    }
  }
}

function jobDetail(
  job: {
    status: JobStatus;
    waitReason: WaitReason | null;
    attempt: number;
    nextRetryAt: string | null;
    error: string | null;
    result: string | null;
  },
  t: Translate,
): string | null {
  switch (job.status) {
    case 'waiting_human':
      return job.waitReason ? t(`activity.wait.${job.waitReason}`) : null;
    case 'retry': {
      const parts = [t('activity.attempt', { attempt: job.attempt + 1 })];
      if (job.nextRetryAt) parts.push(t('activity.nextAt', { time: formatClock(job.nextRetryAt) }));
      if (job.error) parts.push(job.error);
      return parts.join(' · ');
    }
    case 'failed':
      return job.error;
    case 'succeeded':
      return job.result;
    case 'running':
      return job.attempt > 1 ? t('activity.attempt', { attempt: job.attempt }) : null;
    default:
      return null;
  }
}

function llmDetail(llm: LlmCallFacts, t: Translate): string {
  return t('activity.llmDetail', {
    attempt: llm.attempt,
    outcome: llm.outcome,
    latency: formatDuration(llm.latencyMs),
    ttft: llm.ttftMs === null ? '' : t('activity.ttft', { ttft: formatDuration(llm.ttftMs) }),
    prompt: llm.promptTokens,
    cached: llm.cachedPromptTokens,
    completion: llm.completionTokens,
  });
}

/** Whether `row` shows under the enabled groups: its own group, or "Errors" for a failure. */
export function rowVisible(row: ActivityRow, enabled: ReadonlySet<ActivityKind>): boolean {
  return enabled.has(row.kind) || (row.error && enabled.has('error'));
}

export function filterRows(rows: readonly ActivityRow[], enabled: ReadonlySet<ActivityKind>): ActivityRow[] {
  return rows.filter((row) => rowVisible(row, enabled));
}

/** A duration for a row: 850 ms, 12.3 s, 4 m 05 s, 1 h 02 m. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.floor(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)} m ${String(seconds % 60).padStart(2, '0')} s`;
  const minutes = Math.floor(seconds / 60);
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} m`;
}

/** A row's clock time with seconds, in the local zone. */
export function formatClock(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

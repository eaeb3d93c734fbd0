// ActivityTimeline (P7.18): the open task's activity, oldest first: job states with the time spent in each, movements,
// finished tools, approvals, comments, prompt-guard actions and (live only) LLM calls; filterable by group. Above it,
// the tokens of each LlmCall the usage panel loaded, as bars.
import { useEffect, useMemo, useState } from 'react';
import { plainUntrusted } from '../../../src-shared/untrusted-text';
import { useLocale, useT } from '../hooks/useT';
import { ACTIVITY_KINDS, type ActivityKind } from '../store/activity';
import { formatClock, formatDuration } from '../store/activity-format';
import { type ActivityRow, activityRows, filterRows } from '../store/activity-rows';
import { selectActivity } from '../store/entity-selectors';
import { useAppStore } from '../store/store';
import type { TaskUsage } from '../store/usage-slice';
import { formatTokens } from './invoke-headers';
import { UntrustedLine } from './UntrustedText';

const NO_EVENTS: never[] = [];
const NO_ROWS: ActivityRow[] = [];
const DETAIL_CHARS = 240;

/** `shown`: its tab is open. While it is not, the events still fold into the store, but no row is worked out or drawn. */
export function ActivityTimeline({ taskId, shown = true }: { taskId: string; shown?: boolean }) {
  const loadActivity = useAppStore((s) => s.loadActivity);
  const activity = useAppStore((s) => (selectActivity(s)?.taskId === taskId ? selectActivity(s) : null));
  const usage = useAppStore((s) => (s.usage?.taskId === taskId ? s.usage.data : null));
  const [enabled, setEnabled] = useState<ReadonlySet<ActivityKind>>(() => new Set(ACTIVITY_KINDS));
  const t = useT();

  useEffect(() => {
    void loadActivity(taskId);
  }, [taskId, loadActivity]);

  const events = activity?.events ?? NO_EVENTS;
  const rows = useMemo(() => (shown ? activityRows(events, t) : NO_ROWS), [shown, events, t]);
  const visible = useMemo(() => filterRows(rows, enabled), [rows, enabled]);
  const counts = useMemo(() => countKinds(rows), [rows]);

  const toggle = (kind: ActivityKind) =>
    setEnabled((current) => {
      const next = new Set(current);
      if (!next.delete(kind)) next.add(kind);
      return next;
    });

  return (
    <section className="activity" data-testid="activity-timeline" aria-label={t('activity.label')}>
      <fieldset className="activity-filters" aria-label={t('activity.show')}>
        {ACTIVITY_KINDS.map((kind) => (
          <label key={kind} className="activity-filter" data-testid="activity-filter" data-kind={kind}>
            <input
              type="checkbox"
              checked={enabled.has(kind)}
              onChange={() => toggle(kind)}
              data-testid={`activity-filter-${kind}`}
            />
            {t(`activity.kind.${kind}`)} <span className="activity-count">{counts[kind]}</span>
          </label>
        ))}
      </fieldset>
      {usage ? <TokenChart usage={usage} /> : null}
      {activity?.load === 'error' ? (
        <p className="notice notice-error" data-testid="activity-error">
          {t('activity.error', { error: activity.error ?? '' })}
        </p>
      ) : null}
      {visible.length === 0 ? (
        <p className="activity-empty" data-testid="activity-empty">
          {activity?.load === 'loading' && rows.length === 0
            ? t('activity.loading')
            : rows.length === 0
              ? t('activity.empty')
              : t('activity.noMatch')}
        </p>
      ) : (
        <ol className="activity-rows" data-testid="activity-rows">
          {visible.map((row) => (
            <Row key={row.key} row={row} />
          ))}
        </ol>
      )}
    </section>
  );
}

function Row({ row }: { row: ActivityRow }) {
  const t = useT();
  const locale = useLocale();
  const detail = row.detail ? clip(row.detail) : null;
  return (
    <li
      className={`activity-row activity-${row.kind}${row.error ? ' activity-failed' : ''}`}
      data-testid="activity-row"
      data-kind={row.kind}
      data-type={row.type}
      data-status={row.status ?? undefined}
      data-error={row.error ? 'true' : undefined}
      data-job-id={row.jobId ?? undefined}
    >
      <time className="activity-time" dateTime={row.ts} title={row.ts}>
        {formatClock(row.ts, locale)}
      </time>
      <span className="activity-title" data-testid="activity-title">
        <UntrustedLine text={row.title} />
      </span>
      {row.durationMs !== null ? (
        <span className="activity-duration" data-testid="activity-duration" title={t('activity.durationTitle')}>
          <UntrustedLine text={row.title} /> {formatDuration(row.durationMs)}
        </span>
      ) : null}
      {row.live ? (
        <span className="activity-live" title={t('activity.liveTitle')}>
          {t('activity.live')}
        </span>
      ) : null}
      {detail ? (
        <span
          className="activity-detail"
          data-testid="activity-detail"
          title={row.detail ? plainUntrusted(row.detail) : undefined}
        >
          <UntrustedLine text={detail} />
        </span>
      ) : null}
    </li>
  );
}

/** One line of at most DETAIL_CHARS: runs of spaces, tabs and line breaks become one space (any other character,
 * invisible ones included, stays for UntrustedLine to show). */
function clip(text: string): string {
  const flat = text.replace(/[ \t\n]+/g, ' ').trim();
  return flat.length > DETAIL_CHARS ? `${flat.slice(0, DETAIL_CHARS)}…` : flat;
}

function countKinds(rows: readonly ActivityRow[]): Record<ActivityKind, number> {
  const counts: Record<ActivityKind, number> = {
    job: 0,
    llm: 0,
    tool: 0,
    approval: 0,
    comment: 0,
    notification: 0,
    error: 0,
  };
  for (const row of rows) {
    counts[row.kind]++;
    if (row.error) counts.error++;
  }
  return counts;
}

const CHART_CALLS = 60;
const BAR = 12;
const GAP = 2;
const HEIGHT = 40;

/** Stacked bars per LlmCall: cached prompt, the rest of the prompt, completion. */
function TokenChart({ usage }: { usage: TaskUsage }) {
  const t = useT();
  const calls = usage.invokes
    .flatMap((invoke) => invoke.agentTurns.flatMap((turn) => turn.llmCalls))
    .slice(-CHART_CALLS);
  if (calls.length === 0) return null;
  const max = Math.max(1, ...calls.map((c) => c.usage.promptTokens + c.usage.completionTokens));
  const scale = (n: number) => (n / max) * HEIGHT;
  return (
    <figure className="activity-chart" data-testid="activity-token-chart">
      <svg
        width={calls.length * (BAR + GAP)}
        height={HEIGHT}
        viewBox={`0 0 ${calls.length * (BAR + GAP)} ${HEIGHT}`}
        role="img"
        aria-label={t('activity.chart')}
      >
        {calls.map((call, i) => {
          const { promptTokens, cachedPromptTokens, completionTokens } = call.usage;
          const cached = scale(Math.min(cachedPromptTokens, promptTokens));
          const prompt = scale(promptTokens) - cached;
          const completion = scale(completionTokens);
          const x = i * (BAR + GAP);
          return (
            <g key={call.seq} data-testid="activity-token-bar">
              <title>
                {t('activity.chartBar', {
                  attempt: call.attempt,
                  outcome: call.outcome,
                  prompt: formatTokens(promptTokens),
                  cached: formatTokens(cachedPromptTokens),
                  completion: formatTokens(completionTokens),
                })}
              </title>
              <rect className="bar-cached" x={x} y={HEIGHT - cached} width={BAR} height={cached} />
              <rect className="bar-prompt" x={x} y={HEIGHT - cached - prompt} width={BAR} height={prompt} />
              <rect
                className="bar-completion"
                x={x}
                y={HEIGHT - cached - prompt - completion}
                width={BAR}
                height={completion}
              />
            </g>
          );
        })}
      </svg>
      <figcaption className="activity-chart-legend">
        <span className="legend-cached">{t('activity.legend.cached')}</span>{' '}
        <span className="legend-prompt">{t('activity.legend.prompt')}</span>{' '}
        <span className="legend-completion">{t('activity.legend.completion')}</span>
        {t('activity.legend.caption')}
      </figcaption>
    </figure>
  );
}

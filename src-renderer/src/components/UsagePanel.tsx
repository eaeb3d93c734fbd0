// The task's usage: totals, then one row per Invoke under its "Send #N" / Notify / Event header with the sums of its
// AgentTurns; the LlmCalls of each turn (retries included) stay folded away unless opened. What is folded is not
// rendered at all: a long task has thousands of LlmCalls, and the panel is read now and then. Each sum shows its
// estimated $ where every model in it has a price (CostChip), and tokens only where one has none.
import { useState } from 'react';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';
import type { TaskUsage } from '../store/usage-slice';
import { CostChip } from './CostChip';
import { formatTokens, invokeHeaders } from './invoke-headers';

type Sums = TaskUsage['total'];
type Invoke = TaskUsage['invokes'][number];

export function UsagePanel({ taskId }: { taskId: string }) {
  const usage = useAppStore((s) => (s.usage?.taskId === taskId ? s.usage : null));
  const data = usage?.data ?? null;
  const t = useT();
  const [open, setOpen] = useState(false);
  if (!data) {
    return usage?.load === 'error' ? (
      <p className="notice notice-error" data-testid="usage-error">
        {t('usage.error', { error: usage.error ?? '' })}
      </p>
    ) : null;
  }
  const headers = invokeHeaders(data.invokes, t);
  const lastOfJob = lastInvokeOfJob(data.invokes);
  const jobUsd = new Map(data.jobs.map((j) => [j.jobId, j.usd]));
  return (
    <details className="usage" data-testid="usage-panel" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="usage-summary">
        <span className="usage-title">{t('usage.title')}</span>
        <SumsRow sums={data.total} testId="usage-total" />
        <CostChip usd={data.totalUsd} testId="usage-total-usd" />
      </summary>
      {!open ? null : data.invokes.length === 0 ? (
        <p className="usage-empty">{t('usage.empty')}</p>
      ) : (
        <ol className="stack-list" aria-label={t('usage.perInvoke')}>
          {data.invokes.map((invoke, i) => (
            <li
              key={invoke.seq}
              className="usage-invoke"
              data-testid="usage-invoke"
              data-kind={invoke.kind}
              title={invoke.kind}
            >
              <span className="usage-invoke-header" data-testid="usage-invoke-header">
                {headers[i]}
              </span>
              <span className="usage-turns">{t('usage.turns', { count: invoke.agentTurns.length })}</span>
              <SumsRow sums={invoke.usage} />
              <CostChip usd={invoke.usd} testId="usage-invoke-usd" />
              {lastOfJob.get(invoke.jobId) === invoke.seq ? (
                <CostChip
                  usd={jobUsd.get(invoke.jobId) ?? null}
                  label={(usd) => t('cost.job', { usd })}
                  title={t('cost.jobTitle')}
                  testId="usage-job-usd"
                />
              ) : null}
              <LlmCalls invoke={invoke} />
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}

/** Each job's last Invoke, where its total is shown once. */
function lastInvokeOfJob(invokes: readonly Invoke[]): Map<string, number> {
  return new Map(invokes.map((i) => [i.jobId, i.seq]));
}

function SumsRow({ sums, testId }: { sums: Sums; testId?: string }) {
  const t = useT();
  return (
    <span
      className="usage-sums"
      data-testid={testId}
      data-llm-calls={sums.llmCalls}
      data-prompt-tokens={sums.promptTokens}
      data-completion-tokens={sums.completionTokens}
      data-cached-tokens={sums.cachedPromptTokens}
    >
      <span data-testid={testId ? 'usage-llm-calls' : undefined}>{t('usage.llmCalls', { count: sums.llmCalls })}</span>
      <span title={t('usage.promptTitle')}>{t('usage.prompt', { tokens: formatTokens(sums.promptTokens) })}</span>
      <span title={t('usage.cachedTitle')}>{t('usage.cached', { tokens: formatTokens(sums.cachedPromptTokens) })}</span>
      <span title={t('usage.completionTitle')}>
        {t('usage.completion', { tokens: formatTokens(sums.completionTokens) })}
      </span>
    </span>
  );
}

/** An Invoke's AgentTurns with their cost, and each turn's LlmCalls, rendered once opened. */
function LlmCalls({ invoke }: { invoke: Invoke }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <details className="usage-calls" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{t('usage.calls')}</summary>
      {open ? (
        <ol aria-label={t('cost.perTurn')}>
          {invoke.agentTurns.map((turn, turnIndex) => (
            <li key={turn.seq} className="usage-turn" data-testid="usage-turn">
              <span className="usage-turn-header">{t('cost.turn', { turn: turnIndex + 1 })}</span>
              <CostChip usd={turn.usd} testId="usage-turn-usd" />
              <ol>
                {turn.llmCalls.map((call) => (
                  <li key={call.seq} data-testid="usage-llm-call" data-outcome={call.outcome}>
                    {t('usage.callRow', {
                      turn: turnIndex + 1,
                      attempt: call.attempt,
                      outcome: call.outcome,
                      prompt: formatTokens(call.usage.promptTokens),
                      completion: formatTokens(call.usage.completionTokens),
                    })}
                    {call.latencyMs === null ? '' : ` · ${Math.round(call.latencyMs)} ms`}{' '}
                    <CostChip
                      usd={call.usd}
                      title={call.model ? t('cost.title', { model: call.model }) : undefined}
                      testId="usage-call-usd"
                    />
                  </li>
                ))}
              </ol>
            </li>
          ))}
        </ol>
      ) : null}
    </details>
  );
}

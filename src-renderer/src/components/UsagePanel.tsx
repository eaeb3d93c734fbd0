// The task's usage: totals, then one row per Invoke under its "Send #N" / Notify / Event header with the sums of its
// AgentTurns; the LlmCalls of each turn (retries included) stay folded away unless opened.

import { useAppStore } from '../store/store';
import type { TaskUsage } from '../store/usage-slice';
import { formatTokens, invokeHeaders } from './invoke-headers';

type Sums = TaskUsage['total'];

export function UsagePanel({ taskId }: { taskId: string }) {
  const usage = useAppStore((s) => (s.usage?.taskId === taskId ? s.usage : null));
  const data = usage?.data ?? null;
  if (!data) {
    return usage?.load === 'error' ? (
      <p className="notice notice-error" data-testid="usage-error">
        Usage could not be loaded: {usage.error}
      </p>
    ) : null;
  }
  const headers = invokeHeaders(data.invokes);
  return (
    <details className="usage" data-testid="usage-panel">
      <summary className="usage-summary">
        <span className="usage-title">Usage</span>
        <SumsRow sums={data.total} testId="usage-total" />
      </summary>
      {data.invokes.length === 0 ? (
        <p className="usage-empty">No LLM calls yet.</p>
      ) : (
        <ol className="usage-invokes" aria-label="Usage per Invoke">
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
              <span className="usage-turns">
                {invoke.agentTurns.length} {invoke.agentTurns.length === 1 ? 'turn' : 'turns'}
              </span>
              <SumsRow sums={invoke.usage} />
              <details className="usage-calls">
                <summary>LlmCalls</summary>
                <ol>
                  {invoke.agentTurns.flatMap((turn, t) =>
                    turn.llmCalls.map((call) => (
                      <li key={call.seq} data-testid="usage-llm-call" data-outcome={call.outcome}>
                        turn {t + 1} · attempt {call.attempt} · {call.outcome} · {formatTokens(call.usage.promptTokens)}{' '}
                        in / {formatTokens(call.usage.completionTokens)} out
                        {call.latencyMs === null ? '' : ` · ${Math.round(call.latencyMs)} ms`}
                      </li>
                    )),
                  )}
                </ol>
              </details>
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}

function SumsRow({ sums, testId }: { sums: Sums; testId?: string }) {
  return (
    <span
      className="usage-sums"
      data-testid={testId}
      data-llm-calls={sums.llmCalls}
      data-prompt-tokens={sums.promptTokens}
      data-completion-tokens={sums.completionTokens}
      data-cached-tokens={sums.cachedPromptTokens}
    >
      <span data-testid={testId ? 'usage-llm-calls' : undefined}>
        {sums.llmCalls} {sums.llmCalls === 1 ? 'LLM call' : 'LLM calls'}
      </span>
      <span title="prompt tokens">{formatTokens(sums.promptTokens)} prompt</span>
      <span title="of which served from the prompt cache">{formatTokens(sums.cachedPromptTokens)} cached</span>
      <span title="completion tokens">{formatTokens(sums.completionTokens)} completion</span>
    </span>
  );
}

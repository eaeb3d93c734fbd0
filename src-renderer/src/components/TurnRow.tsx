// One AgentTurn of the chat, or one part of a long one, whether it still streams (a `turn` row) or is recorded (a
// `step` row): its header, a note (a retried generation, a failed one), its reasoning folded away, its text — the
// message of its `complete` call included, as Markdown, never its JSON — and its tool calls. Both kinds render this one
// component in the same shape, and a step takes over the key of the streamed row it replaces (feed-rows.ts), so when
// a turn is recorded React keeps its text's DOM: nothing is parsed, built or laid out again.
import { memo } from 'react';
import { useLocale, useT } from '../hooks/useT';
import type { LlmState } from '../store/job-stream';
import type { FeedRow } from './feed-rows';
import { formatTime } from './format';
import { StreamTools } from './JobStreamMessage';
import { Markdown } from './Markdown';
import { StepTools } from './StepMessage';

type TurnFeedRow = Extract<FeedRow, { kind: 'turn' | 'step' }>;

/** `llm`: the model's state, given to the generation's last row only (so the others never re-render for it). */
export const TurnRow = memo(function TurnRow({ row, llm }: { row: TurnFeedRow; llm?: LlmState }) {
  const t = useT();
  const locale = useLocale();
  const step = row.kind === 'step' ? row.step : null;
  const depth = step ? step.depth : row.kind === 'turn' ? row.depth : 0;
  const reasoning = row.turnStart ? (step ? step.reasoning : row.kind === 'turn' ? row.turn.reasoning : '') : '';
  const header = step ? (
    row.turnStart ? (
      <header className="message-header">
        <span className="message-kind">{depth > 0 ? t('step.subAgent') : t('chat.author.agent')}</span>
        <time dateTime={step.createdAt}>{formatTime(step.createdAt, locale)}</time>
        {step.usage.llmCalls > 0 ? (
          <span className="step-usage" data-testid="step-usage">
            {t('step.usage', { prompt: step.usage.promptTokens, completion: step.usage.completionTokens })}
            {step.usage.llmCalls > 1 ? ` · ${t('step.retries', { count: step.usage.llmCalls })}` : ''}
          </span>
        ) : null}
      </header>
    ) : null
  ) : row.kind === 'turn' && row.first ? (
    <header className="message-header">
      <span className="message-kind">{depth > 0 ? t('stream.delegate') : t('stream.working')}</span>
      <span className="message-author">{t('chat.author.agent')}</span>
    </header>
  ) : null;
  let note = null;
  if (step && row.turnStart && step.error) {
    note = (
      <p className="step-error" role="alert" data-testid="step-error">
        {t('step.failed', { error: step.error })}
      </p>
    );
  } else if (row.kind === 'turn' && row.turnStart && row.turn.discarded > 0) {
    note = (
      <p className="stream-note" data-testid="stream-retried">
        {t('stream.retried')}
      </p>
    );
  }
  const tools =
    row.toolCalls.length === 0 ? null : row.kind === 'step' ? (
      <StepTools jobId={row.step.jobId} calls={row.toolCalls} />
    ) : (
      <StreamTools calls={row.toolCalls} />
    );
  return (
    <div
      className={`message ${step ? 'message-step' : 'message-stream'} message-from-agent${header ? '' : ' message-stream-more'}`}
      style={depth > 0 ? { marginInlineStart: `${depth * 1.5}rem` } : undefined}
      data-testid={step ? 'chat-step' : 'job-stream'}
      data-step-id={step?.id}
      data-job-id={step ? step.jobId : row.kind === 'turn' ? row.jobId : undefined}
      data-depth={depth}
      data-llm-state={llm}
      data-stopped={row.stopped || undefined}
      aria-busy={llm === 'streaming'}
    >
      {header}
      <section className="stream-turn" data-testid={step ? undefined : 'stream-turn'}>
        {note}
        {reasoning ? (
          <details className="stream-reasoning" data-testid={step ? 'step-reasoning' : 'stream-reasoning'}>
            <summary>{t('stream.reasoning')}</summary>
            <div className="stream-reasoning-text">{reasoning}</div>
          </details>
        ) : null}
        {row.text ? (
          <div className="message-body" data-testid={step ? 'step-text' : 'stream-text'}>
            <Markdown text={row.text} />
          </div>
        ) : null}
        {tools}
        {row.stopped ? (
          <p className="turn-stopped" data-testid="turn-stopped" title={t('feed.stoppedLabel')}>
            {t('feed.stopped')}
          </p>
        ) : null}
      </section>
    </div>
  );
});

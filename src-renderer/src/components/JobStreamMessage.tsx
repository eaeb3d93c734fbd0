// The generation in progress, as the last rows of the feed: one block per AgentTurn (LlmCall boundaries hidden; a long
// answer spans several rows) with its streamed text and the message of its `complete` call (the answer, as Markdown,
// never its JSON), the reasoning folded away and its tool calls with their state (a finished call's result folded
// away too), and a marker where the job entered another movement. Persisted comments replace them.
import { memo } from 'react';
import { useT } from '../i18n';
import type { LlmState, StreamToolCall, StreamTurn } from '../store/job-stream';
import { COMPLETE_TOOL, turnView } from '../store/stream-answer';
import { Markdown } from './Markdown';

interface Props {
  jobId: string;
  turnCount: number;
  /** This row's part of the turn's text (a long answer spans several rows). */
  text: string;
  /** Still growing: the turn's last part. */
  streaming: boolean;
  /** The first part of the first turn shown: it carries the block's header. */
  header: boolean;
  /** Given to the turn's first part only. */
  reasoning?: string;
  discarded?: number;
  /** Given to the turn's last part only. */
  toolCalls?: readonly StreamToolCall[];
  /** The model's state, given to the generation's last row only (so the others never re-render for it). */
  llm?: LlmState;
  /** A sub-agent's turn (> 0): indented under the delegate call it runs in. */
  depth?: number;
}

const NO_CALLS: readonly StreamToolCall[] = [];

/** One AgentTurn of the live generation, or one part of it; re-renders only when its own part changes. */
export const JobStreamMessage = memo(function JobStreamMessage({
  jobId,
  turnCount,
  text,
  streaming,
  header,
  reasoning = '',
  discarded = 0,
  toolCalls = NO_CALLS,
  llm,
  depth = 0,
}: Props) {
  const t = useT();
  return (
    <div
      className={`message message-stream message-from-agent${header ? '' : ' message-stream-more'}`}
      style={depth > 0 ? { marginInlineStart: `${depth * 1.5}rem` } : undefined}
      data-depth={depth}
      data-testid="job-stream"
      data-job-id={jobId}
      data-llm-state={llm}
      aria-busy={llm === 'streaming'}
    >
      {header ? (
        <header className="message-header">
          <span className="message-kind">{depth > 0 ? t('stream.delegate') : t('stream.working')}</span>
          <span className="message-author">{t('chat.author.agent')}</span>
        </header>
      ) : null}
      <section className="stream-turn" data-testid="stream-turn" data-turn={turnCount}>
        {discarded > 0 ? (
          <p className="stream-note" data-testid="stream-retried">
            {t('stream.retried')}
          </p>
        ) : null}
        {reasoning ? (
          <details className="stream-reasoning" data-testid="stream-reasoning">
            <summary>{t('stream.reasoning')}</summary>
            <div className="stream-reasoning-text">{reasoning}</div>
          </details>
        ) : null}
        {text ? (
          <div className="message-body" data-testid="stream-text">
            <Markdown text={text} streaming={streaming} />
          </div>
        ) : null}
        {toolCalls.length > 0 ? (
          <ul className="stack-list" aria-label={t('stream.toolCalls')}>
            {toolCalls.map((call) => (
              <ToolCallRow key={`${call.index}-${call.name}`} call={call} />
            ))}
          </ul>
        ) : null}
      </section>
    </div>
  );
});

/** Where the job entered a movement. */
export function MovementMarker({ movement }: { movement: string }) {
  const t = useT();
  return (
    <p className="feed-marker feed-movement" data-testid="feed-movement" data-movement={movement}>
      {t('chat.movement', { movement })}
    </p>
  );
}

function ToolCallRow({ call }: { call: StreamToolCall }) {
  const t = useT();
  return (
    <li className={`stream-tool stream-tool-${call.status}`} data-testid="stream-tool" data-status={call.status}>
      <span className="stream-tool-name">{call.name || '…'}</span>
      <span className="stream-tool-status">{t(`stream.tool.${call.status}`)}</span>
      {call.arguments && call.name !== COMPLETE_TOOL ? (
        <code className="stream-tool-args">{clip(call.arguments, 160)}</code>
      ) : null}
      {call.policy ? (
        <span className="stream-tool-policy" data-testid="stream-tool-policy" data-action={call.policy.action}>
          {t(`activity.policy.${call.policy.action}`, { tool: call.name })} ·{' '}
          {t('activity.policy.rule', { rule: call.policy.rule })}
        </span>
      ) : null}
      {call.nested && call.nested.length > 0 ? <DelegateStream turns={call.nested} /> : null}
      {call.preview ? (
        <details className="stream-tool-result" data-testid="stream-tool-result">
          <summary>{t('stream.tool.result')}</summary>
          <pre className="stream-tool-preview">{clip(call.preview, 400)}</pre>
        </details>
      ) : null}
    </li>
  );
}

/** A sub-agent's turns inside its delegate call: its text as it streams and its own tool calls, indented. */
function DelegateStream({ turns }: { turns: readonly StreamTurn[] }) {
  const t = useT();
  return (
    <div className="stream-delegate" data-testid="stream-delegate">
      <span className="stream-delegate-label">{t('stream.delegate')}</span>
      {turns.map((turn) => {
        const view = turnView(turn);
        return (
          <div key={turn.turnCount} className="stream-delegate-turn">
            {view.text ? (
              <p className="stream-delegate-text" data-testid="stream-delegate-text">
                {clip(view.text, 2000)}
              </p>
            ) : null}
            {view.toolCalls.length > 0 ? (
              <ul className="stack-list">
                {view.toolCalls.map((call) => (
                  <ToolCallRow key={`${call.index}-${call.name}`} call={call} />
                ))}
              </ul>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

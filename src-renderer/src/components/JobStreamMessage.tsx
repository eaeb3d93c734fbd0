// The generation in progress, as the last item of the feed: one block per AgentTurn (LlmCall boundaries hidden),
// its streamed text, the reasoning folded away, and its tool calls with their state. Persisted comments replace it.
import { useT } from '../i18n';
import type { JobStream, StreamToolCall, StreamTurn } from '../store/job-stream';
import { Markdown } from './Markdown';

export function JobStreamMessage({ stream }: { stream: JobStream }) {
  const t = useT();
  const turns = stream.turns.filter((t) => t.text || t.reasoning || t.toolCalls.length > 0 || t.discarded > 0);
  if (turns.length === 0) return null;
  return (
    <li
      className="message message-stream message-from-agent"
      data-testid="job-stream"
      data-job-id={stream.jobId}
      data-llm-state={stream.llm}
      aria-live="polite"
      aria-busy={stream.llm === 'streaming'}
    >
      <header className="message-header">
        <span className="message-kind">{t('stream.working')}</span>
        <span className="message-author">{t('chat.author.agent')}</span>
      </header>
      {turns.map((turn) => (
        <TurnBlock key={turn.turnCount} turn={turn} />
      ))}
    </li>
  );
}

function TurnBlock({ turn }: { turn: StreamTurn }) {
  const t = useT();
  return (
    <section className="stream-turn" data-testid="stream-turn" data-turn={turn.turnCount}>
      {turn.discarded > 0 ? (
        <p className="stream-note" data-testid="stream-retried">
          {t('stream.retried')}
        </p>
      ) : null}
      {turn.reasoning ? (
        <details className="stream-reasoning" data-testid="stream-reasoning">
          <summary>{t('stream.reasoning')}</summary>
          <div className="stream-reasoning-text">{turn.reasoning}</div>
        </details>
      ) : null}
      {turn.text ? (
        <div className="message-body" data-testid="stream-text">
          <Markdown text={turn.text} streaming />
        </div>
      ) : null}
      {turn.toolCalls.length > 0 ? (
        <ul className="stream-tools" aria-label={t('stream.toolCalls')}>
          {turn.toolCalls.map((call) => (
            <ToolCallRow key={`${call.index}-${call.name}`} call={call} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function ToolCallRow({ call }: { call: StreamToolCall }) {
  const t = useT();
  return (
    <li className={`stream-tool stream-tool-${call.status}`} data-testid="stream-tool" data-status={call.status}>
      <span className="stream-tool-name">{call.name || '…'}</span>
      <span className="stream-tool-status">{t(`stream.tool.${call.status}`)}</span>
      {call.arguments ? <code className="stream-tool-args">{clip(call.arguments, 160)}</code> : null}
      {call.preview ? <pre className="stream-tool-preview">{clip(call.preview, 400)}</pre> : null}
    </li>
  );
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

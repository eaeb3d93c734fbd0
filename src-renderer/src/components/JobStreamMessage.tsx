// The generation in progress, as the last item of the feed: one block per AgentTurn (LlmCall boundaries hidden),
// its streamed text, the reasoning folded away, and its tool calls with their state. Persisted comments replace it.
import type { JobStream, StreamToolCall, StreamTurn, ToolCallStatus } from '../store/job-stream';
import { Markdown } from './Markdown';

const TOOL_STATUS_LABELS: Record<ToolCallStatus, string> = {
  streaming: 'preparing',
  running: 'running',
  ok: 'done',
  error: 'failed',
};

export function JobStreamMessage({ stream }: { stream: JobStream }) {
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
        <span className="message-kind">Working</span>
        <span className="message-author">Agent</span>
      </header>
      {turns.map((turn) => (
        <TurnBlock key={turn.turnCount} turn={turn} />
      ))}
    </li>
  );
}

function TurnBlock({ turn }: { turn: StreamTurn }) {
  return (
    <section className="stream-turn" data-testid="stream-turn" data-turn={turn.turnCount}>
      {turn.discarded > 0 ? (
        <p className="stream-note" data-testid="stream-retried">
          The model was asked again; the partial answer was discarded.
        </p>
      ) : null}
      {turn.reasoning ? (
        <details className="stream-reasoning" data-testid="stream-reasoning">
          <summary>Reasoning</summary>
          <div className="stream-reasoning-text">{turn.reasoning}</div>
        </details>
      ) : null}
      {turn.text ? (
        <div className="message-body" data-testid="stream-text">
          <Markdown text={turn.text} streaming />
        </div>
      ) : null}
      {turn.toolCalls.length > 0 ? (
        <ul className="stream-tools" aria-label="Tool calls">
          {turn.toolCalls.map((call) => (
            <ToolCallRow key={`${call.index}-${call.name}`} call={call} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function ToolCallRow({ call }: { call: StreamToolCall }) {
  return (
    <li className={`stream-tool stream-tool-${call.status}`} data-testid="stream-tool" data-status={call.status}>
      <span className="stream-tool-name">{call.name || '…'}</span>
      <span className="stream-tool-status">{TOOL_STATUS_LABELS[call.status]}</span>
      {call.arguments ? <code className="stream-tool-args">{clip(call.arguments, 160)}</code> : null}
      {call.preview ? <pre className="stream-tool-preview">{clip(call.preview, 400)}</pre> : null}
    </li>
  );
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

// The generation in progress: the tool calls of a streamed AgentTurn with their state (a finished call's result
// folded away; TurnRow shows the rest of the turn), a sub-agent's turns nested in its delegate call, and the marker
// where the job entered another movement.
import { useT } from '../hooks/useT';
import type { StreamToolCall, StreamTurn } from '../store/job-stream';
import { COMPLETE_TOOL, turnView } from '../store/stream-answer';
import { ToolCallProgress } from './ToolCallProgress';

/** The tool calls of a turn as it streams, each with its state (a finished call's result folded away). */
export function StreamTools({ calls }: { calls: readonly StreamToolCall[] }) {
  const t = useT();
  return (
    <ul className="stack-list" aria-label={t('stream.toolCalls')}>
      {calls.map((call) => (
        <ToolCallRow key={`${call.index}-${call.name}`} call={call} />
      ))}
    </ul>
  );
}

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
      {/* The last note stays once the call is done: it often says what the result is about (issue 27). */}
      {call.progress ? <ToolCallProgress progress={call.progress} /> : null}
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

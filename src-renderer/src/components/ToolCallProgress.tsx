// A running tool call's progress as its tool reports it (an MCP server's progress notifications): a bar when the
// total is known, the count and the tool's own message.
import { useT } from '../hooks/useT';
import type { StreamToolCall } from '../store/job-stream';

export function ToolCallProgress({ progress }: { progress: NonNullable<StreamToolCall['progress']> }) {
  const t = useT();
  const { total, message } = progress;
  const count =
    total === null
      ? t('stream.tool.progress', { progress: progress.progress })
      : t('stream.tool.progressOf', { progress: progress.progress, total });
  return (
    <span className="stream-tool-progress" data-testid="stream-tool-progress" data-progress={progress.progress}>
      {total !== null && total > 0 ? <progress value={Math.min(progress.progress, total)} max={total} /> : null}
      <span>{message ? `${count} · ${message}` : count}</span>
    </span>
  );
}

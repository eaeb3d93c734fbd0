// The selected task: its title, the latest job's live status, Cancel / Continue, and the ChatPane.
import { useState } from 'react';
import { isTerminal } from '../../../src-shared/entities';
import { useAppStore } from '../store/store';
import { ChatPane } from './ChatPane';
import { StatusBadge } from './StatusBadge';

export function TaskView() {
  const detail = useAppStore((s) => s.detail);
  const load = useAppStore((s) => s.detailLoad);
  const error = useAppStore((s) => s.detailError);
  const cancelTask = useAppStore((s) => s.cancelTask);
  const continueTask = useAppStore((s) => s.continueTask);
  const [actionError, setActionError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (!detail) {
    return (
      <div className="empty-view" data-testid="no-task-selected">
        <p>Select a task, or create a new one.</p>
      </div>
    );
  }
  if (!detail.task) {
    return (
      <div className="empty-view">
        <p className={load === 'error' ? 'text-error' : undefined}>
          {load === 'error' ? `Could not load the task: ${error}` : 'Loading…'}
        </p>
      </div>
    );
  }

  const { task } = detail;
  const job = detail.jobs.at(-1);
  const terminal = job ? isTerminal(job.status) : true;

  async function run(action: (taskId: string) => Promise<{ ok: true } | { ok: false; error: { message: string } }>) {
    setBusy(true);
    setActionError(null);
    const outcome = await action(task.id);
    setBusy(false);
    if (!outcome.ok) setActionError(outcome.error.message);
  }

  return (
    <article className="task-view" data-testid="task-view" data-task-id={task.id}>
      <header className="task-header">
        <div className="task-heading">
          <h2 data-testid="task-view-title">{task.title}</h2>
          <p className="task-sub">
            <span>piece {task.pieceId}</span>
            <span title={task.workspacePath}>{task.workspacePath}</span>
          </p>
        </div>
        <div className="task-actions">
          <StatusBadge status={job?.status ?? null} waitReason={job?.waitReason} testId="job-status" />
          <button
            type="button"
            className="button"
            disabled={busy || terminal}
            onClick={() => void run(cancelTask)}
            data-testid="task-cancel"
          >
            Cancel
          </button>
          <button
            type="button"
            className="button"
            disabled={busy || !terminal}
            title={terminal ? undefined : 'Available when the latest job has ended'}
            onClick={() => void run(continueTask)}
            data-testid="task-continue"
          >
            Continue
          </button>
        </div>
      </header>
      {job?.error ? <p className="notice notice-error">{job.error}</p> : null}
      {actionError ? (
        <p className="notice notice-error" data-testid="task-action-error">
          {actionError}
        </p>
      ) : null}
      <ChatPane taskId={task.id} />
    </article>
  );
}

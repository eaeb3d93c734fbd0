// The selected task: its title, the latest job's live status, Cancel / Continue, its progress and usage, and the
// ChatPane with the generation in progress.
import { useState } from 'react';
import { isTerminal, type Task } from '../../../src-shared/entities';
import { useJobStream } from '../hooks/useJobStream';
import type { TaskDetail } from '../store/detail-slice';
import { useAppStore } from '../store/store';
import { ChatPane } from './ChatPane';
import { JobProgress } from './JobProgress';
import { StatusBadge } from './StatusBadge';
import { UsagePanel } from './UsagePanel';

export function TaskView() {
  const detail = useAppStore((s) => s.detail);
  const load = useAppStore((s) => s.detailLoad);
  const error = useAppStore((s) => s.detailError);

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

  return <TaskBody key={detail.task.id} task={detail.task} detail={detail} />;
}

function TaskBody({ task, detail }: { task: Task; detail: TaskDetail }) {
  const cancelTask = useAppStore((s) => s.cancelTask);
  const continueTask = useAppStore((s) => s.continueTask);
  const [actionError, setActionError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const live = useJobStream(task.id);
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
      <JobProgress {...live} jobStatus={job?.status ?? null} />
      <UsagePanel taskId={task.id} />
      {job?.error ? <p className="notice notice-error">{job.error}</p> : null}
      {actionError ? (
        <p className="notice notice-error" data-testid="task-action-error">
          {actionError}
        </p>
      ) : null}
      <ChatPane taskId={task.id} stream={live.stream} />
    </article>
  );
}

// The selected task: a compact header (its title, the task it was forked from or its forks, the job's progress and
// the usage as chips, the latest job's live status, Cancel / Continue and the files it changed, TaskChangesDialog),
// what the last rewind did, and the ChatPane with the generation in progress, or (on its tab) the ActivityTimeline.
// The chat gets the rest of the window; the usage details open in a popover (UsageChip) over it, and a card that
// appears is announced (DecisionAnnouncer).
import { useState } from 'react';
import { isTerminal, type Task } from '../../../src-shared/entities';
import { useJobStream } from '../hooks/useJobStream';
import { useT } from '../hooks/useT';
import type { TaskDetail } from '../store/detail-slice';
import { selectDetail } from '../store/entity-selectors';
import { useAppStore } from '../store/store';
import { ActivityTimeline } from './ActivityTimeline';
import { ChatPane } from './ChatPane';
import { CheckpointDialogs } from './CheckpointDialogs';
import { CheckpointsOff } from './CheckpointsOff';
import { DecisionAnnouncer } from './DecisionAnnouncer';
import { JobProgress } from './JobProgress';
import { NewTaskComposer } from './NewTaskComposer';
import { JobError } from './OutcomeNotice';
import { RestoreNotice } from './RestoreNotice';
import { StatusBadge } from './StatusBadge';
import { TaskChangesDialog } from './TaskChangesDialog';
import { TaskGrants } from './TaskGrants';
import { TaskLineage } from './TaskLineage';
import { UntrustedLine } from './UntrustedText';
import { UsageChip } from './UsageChip';

export function TaskView() {
  const detail = useAppStore((s) => selectDetail(s));
  const load = useAppStore((s) => s.detailLoad);
  const error = useAppStore((s) => s.detailError);
  const t = useT();

  if (!detail) {
    return (
      <div className="empty-view empty-view-composer" data-testid="no-task-selected">
        <NewTaskComposer place="page" />
      </div>
    );
  }
  if (!detail.task) {
    return (
      <div className="empty-view">
        <p className={load === 'error' ? 'text-error' : undefined}>
          {load === 'error' ? t('taskView.loadError', { error: error ?? '' }) : t('taskView.loading')}
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
  const [tab, setTab] = useState<'chat' | 'activity'>('chat');
  const [changesOpen, setChangesOpen] = useState(false);
  const t = useT();
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
          <h2 data-testid="task-view-title">
            <UntrustedLine text={task.title} />
          </h2>
          <div className="task-sub">
            <StatusBadge status={job?.status ?? null} waitReason={job?.waitReason} testId="job-status" />
            <JobProgress {...live} jobStatus={job?.status ?? null} />
            <UsageChip taskId={task.id} />
            <span className="task-where" title={task.workspacePath}>
              {t('taskView.piece', { piece: task.pieceId })} · {task.workspacePath}
            </span>
          </div>
          <TaskLineage task={task} />
        </div>
        <div className="task-tabs" role="tablist" aria-label={t('taskView.tabs')}>
          {TABS.map((id) => (
            <button
              key={id}
              type="button"
              role="tab"
              className="task-tab"
              aria-selected={tab === id}
              onClick={() => setTab(id)}
              data-testid={`tab-${id}`}
            >
              {t(`taskView.tab.${id}`)}
            </button>
          ))}
        </div>
        <div className="task-actions">
          <button
            type="button"
            className="button"
            aria-haspopup="dialog"
            onClick={() => setChangesOpen(true)}
            data-testid="task-changes-open"
          >
            {t('changes.open')}
          </button>
          <button
            type="button"
            className="button"
            disabled={busy || terminal}
            onClick={() => void run(cancelTask)}
            data-testid="task-cancel"
          >
            {t('taskView.cancel')}
          </button>
          <button
            type="button"
            className="button"
            disabled={busy || !terminal}
            title={terminal ? undefined : t('taskView.continueHint')}
            onClick={() => void run(continueTask)}
            data-testid="task-continue"
          >
            {t('taskView.continue')}
          </button>
        </div>
      </header>
      <DecisionAnnouncer taskId={task.id} />
      <TaskGrants taskId={task.id} />
      <CheckpointsOff taskId={task.id} />
      {changesOpen ? null : <RestoreNotice taskId={task.id} />}
      {/* A failed job's error is in the chat, where it happened; a job waiting to retry has no comment for it. */}
      {job?.status === 'retry' ? <JobError job={job} testId="job-error" /> : null}
      {actionError ? (
        <p className="notice notice-error" data-testid="task-action-error">
          {actionError}
        </p>
      ) : null}
      {/* Both stay mounted: the composer keeps its draft and the timeline keeps folding events while hidden. */}
      <div className="task-tab-panel" role="tabpanel" hidden={tab !== 'chat'}>
        <ChatPane taskId={task.id} />
      </div>
      <div className="task-tab-panel" role="tabpanel" hidden={tab !== 'activity'}>
        <ActivityTimeline taskId={task.id} shown={tab === 'activity'} />
      </div>
      <CheckpointDialogs />
      {changesOpen ? <TaskChangesDialog taskId={task.id} onClose={() => setChangesOpen(false)} /> : null}
    </article>
  );
}

const TABS = ['chat', 'activity'] as const;

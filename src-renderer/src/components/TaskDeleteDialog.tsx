// The confirmation before a task is deleted for good: what goes with it (its subtasks, its conversation and files),
// and why it could not be deleted when the server refuses (a job of it still runs).
import { useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { Task } from '../../../src-shared/entities';
import { untrustedLine } from '../../../src-shared/untrusted-text';
import { useModalDialog } from '../hooks/useModalDialog';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';

interface Props {
  task: Task;
  /** How many subtasks are deleted with it. */
  subtasks: number;
  onClose(): void;
}

export function TaskDeleteDialog({ task, subtasks, onClose }: Props) {
  const deleteTask = useAppStore((s) => s.deleteTask);
  const pushToast = useAppStore((s) => s.pushToast);
  const t = useT();
  const headingId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  // Opened from the row's menu, whose item is gone by then: the focus goes back to the row's menu button.
  const ref = useModalDialog(onClose, {
    fallback: () =>
      document.querySelector(`[data-testid="task-row"][data-task-id="${task.id}"] [data-testid="task-menu"]`),
  });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // The safe choice has the focus, so Enter does not delete by accident.
  useEffect(() => cancelRef.current?.focus(), []);

  async function confirm() {
    setBusy(true);
    setError(null);
    const failure = await deleteTask(task.id);
    setBusy(false);
    if (!failure) {
      pushToast({ tone: 'info', text: t('tasks.deleted', { title: untrustedLine(task.title, 200) }) });
      onClose();
    } else if (failure.code === 'conflict') setError(t('tasks.deleteRunning'));
    else setError(t('tasks.deleteFailed', { message: failure.message }));
  }

  // Into <body>, as the app's other dialogs sit at its end: from inside the scrolling sidebar the task view would paint
  // over it.
  return createPortal(
    <dialog ref={ref} className="modal" aria-labelledby={headingId} data-testid="task-delete-dialog">
      <div className="dialog task-delete-dialog">
        <h2 id={headingId}>{t('tasks.deleteTitle', { title: untrustedLine(task.title, 200) })}</h2>
        <p>{t('tasks.deleteBody')}</p>
        {subtasks > 0 ? <p>{t('tasks.deleteWithSubtasks', { count: subtasks })}</p> : null}
        {error ? (
          <p className="notice-error" role="alert" data-testid="task-delete-error">
            {error}
          </p>
        ) : null}
        <div className="dialog-actions">
          <button ref={cancelRef} type="button" className="button" onClick={onClose} data-testid="task-delete-cancel">
            {t('tasks.deleteCancel')}
          </button>
          <button
            type="button"
            className="button button-danger"
            disabled={busy}
            onClick={() => void confirm()}
            data-testid="task-delete-confirm"
          >
            {t('tasks.deleteConfirm')}
          </button>
        </div>
      </div>
    </dialog>,
    document.body,
  );
}

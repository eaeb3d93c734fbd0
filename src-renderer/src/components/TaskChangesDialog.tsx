// The task's "Files changed" view: every file the task changed (every job, against the folder as it was when the task
// started), each with its change mark, its line counts, its diff (DiffView) and "Revert this file" — confirmed first,
// since it writes the file back; the file as it is now is checkpointed, so the revert can be undone (RestoreNotice).
// Opened from the task's header; Escape or Close closes it, and the focus goes back to the button that opened it.
import { useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { TaskFileChange } from '../../../src-shared/checkpoints';
import { untrustedLine } from '../../../src-shared/untrusted-text';
import { useModalDialog } from '../hooks/useModalDialog';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';
import { ChangedFileName } from './CheckpointFiles';
import { DiffView } from './DiffView';
import { RestoreNotice } from './RestoreNotice';

export function TaskChangesDialog({ taskId, onClose }: { taskId: string; onClose(): void }) {
  const t = useT();
  const changes = useAppStore((s) => (s.taskChanges?.taskId === taskId ? s.taskChanges : null));
  const load = useAppStore((s) => s.loadTaskChanges);
  const headingId = useId();
  const closeRef = useRef<HTMLButtonElement>(null);
  const ref = useModalDialog(onClose);

  useEffect(() => {
    void load(taskId);
    closeRef.current?.focus();
  }, [load, taskId]);

  // From anywhere while it is open, as Settings: a reverted file's row (and the focus in it) goes with the revert.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const files = changes?.data?.files ?? [];
  const state = changes?.data?.state;
  return createPortal(
    <dialog
      ref={ref}
      className="modal"
      aria-labelledby={headingId}
      data-testid="task-changes"
      data-load={changes?.load ?? 'idle'}
    >
      <div className="dialog dialog-wide task-changes">
        <div className="task-changes-head">
          <h2 id={headingId}>{t('changes.title')}</h2>
          <button ref={closeRef} type="button" className="button" onClick={onClose} data-testid="task-changes-close">
            {t('changes.close')}
          </button>
        </div>
        <p className="field-hint">{t('changes.about')}</p>
        <RestoreNotice taskId={taskId} />
        {state && !state.on ? (
          <p className="notice" data-testid="task-changes-off">
            {state.note ? t('checkpoint.off', { note: state.note }) : t('checkpoint.offNoReason')}
          </p>
        ) : null}
        {changes?.load === 'error' ? (
          <p className="notice notice-error" role="alert" data-testid="task-changes-error">
            {t('changes.loadFailed', { message: changes.error ?? '' })}
          </p>
        ) : null}
        {changes?.data === null || changes === null ? (
          changes?.load === 'error' ? null : (
            <p className="notice">{t('changes.loading')}</p>
          )
        ) : files.length === 0 ? (
          <p className="notice" data-testid="task-changes-none">
            {t('changes.none')}
          </p>
        ) : (
          <ul className="task-changes-list">
            {files.map((file) => (
              <ChangedFileItem
                key={file.path}
                taskId={taskId}
                file={file}
                onReverted={() => closeRef.current?.focus()}
              />
            ))}
          </ul>
        )}
      </div>
    </dialog>,
    document.body,
  );
}

interface ItemProps {
  taskId: string;
  file: TaskFileChange;
  /** The revert went through: this row is about to go, so the focus goes to the dialog. */
  onReverted(): void;
}

function ChangedFileItem({ taskId, file, onReverted }: ItemProps) {
  const t = useT();
  const revert = useAppStore((s) => s.revertTaskFile);
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const keepRef = useRef<HTMLButtonElement>(null);
  const revertRef = useRef<HTMLButtonElement>(null);
  /** The confirmation closed without the file going: the focus goes back to its Revert button. */
  const back = useRef(false);
  const path = untrustedLine(file.path, 300);

  useEffect(() => {
    if (confirming) keepRef.current?.focus();
    else if (back.current) {
      back.current = false;
      revertRef.current?.focus();
    }
  }, [confirming]);

  async function confirm() {
    setBusy(true);
    setError(null);
    const outcome = await revert(taskId, file.path);
    setBusy(false);
    if (outcome.ok) onReverted();
    else {
      back.current = true;
      setError(t('changes.revertFailed', { path, message: outcome.error.message }));
    }
    setConfirming(false);
  }

  return (
    <li className="task-change" data-testid="task-change" data-path={file.path} data-change={file.change}>
      <div className="task-change-line">
        <button
          type="button"
          className="files-changed-toggle"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
          data-testid="task-change-toggle"
        >
          <ChangedFileName file={file} pathClass="diff-file" />
          <span className="diff-count diff-count-added">{t('diff.added', { count: file.added })}</span>
          <span className="diff-count diff-count-removed">{t('diff.removed', { count: file.removed })}</span>
        </button>
        {confirming ? null : (
          <button
            ref={revertRef}
            type="button"
            className="button"
            aria-label={t('changes.revertLabel', { path })}
            onClick={() => setConfirming(true)}
            data-testid="task-change-revert"
          >
            {t('changes.revert')}
          </button>
        )}
      </div>
      {confirming ? (
        <div className="task-change-confirm">
          <p>{t('changes.revertConfirm', { path })}</p>
          <div className="dialog-actions">
            <button
              ref={keepRef}
              type="button"
              className="button"
              onClick={() => {
                back.current = true;
                setConfirming(false);
              }}
              data-testid="task-change-revert-cancel"
            >
              {t('changes.revertNo')}
            </button>
            <button
              type="button"
              className="button button-danger"
              disabled={busy}
              onClick={() => void confirm()}
              data-testid="task-change-revert-confirm"
            >
              {t('changes.revertYes')}
            </button>
          </div>
        </div>
      ) : null}
      {error ? (
        <p className="notice-error" role="alert" data-testid="task-change-error">
          {error}
        </p>
      ) : null}
      {open ? (
        file.binary ? (
          <p className="stream-note">{t('changes.binary')}</p>
        ) : (
          <DiffView text={file.diff} testId="task-change-diff" />
        )
      ) : null}
    </li>
  );
}

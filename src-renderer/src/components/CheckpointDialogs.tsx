// The confirmations a Send's menu opens, saying exactly what will happen: a rewind of files (the files it would write
// back and remove, and the person's own edits it would overwrite, asked of the host first as a dry run; the folder as
// it is now is checkpointed first, so it can be undone), of the conversation (that Send and the later ones are folded
// and never sent to the model again) or both; and a fork (a new task in the same folder
// with this conversation before that Send, optionally with an instruction to start on). Escape or Cancel closes; the
// focus starts on the safe choice and goes back to the Send's menu button.
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { RewindMode } from '../../../src-shared/checkpoints';
import { useModalDialog } from '../hooks/useModalDialog';
import { useT } from '../hooks/useT';
import type { CheckpointDialog, RewindPreview } from '../store/checkpoints-slice';
import { useAppStore } from '../store/store';
import { listed } from './RestoreNotice';

export function CheckpointDialogs() {
  const dialog = useAppStore((s) => s.checkpointDialog);
  const openDialog = useAppStore((s) => s.openCheckpointDialog);
  // A fork opens the new task: the focus stays there rather than going back to this task's menu.
  const forked = useRef(false);
  useEffect(() => {
    if (dialog) forked.current = false;
  }, [dialog]);
  if (!dialog) return null;
  const close = () => openDialog(null);
  const sendMenu = () =>
    forked.current
      ? null
      : document.querySelector<HTMLElement>(`[data-testid="send-menu"][data-send="${dialog.send}"]`);
  return dialog.kind === 'rewind' ? (
    <RewindDialog dialog={dialog} onClose={close} returnFocus={sendMenu} />
  ) : (
    <ForkDialog
      dialog={dialog}
      onClose={close}
      returnFocus={sendMenu}
      onForked={() => {
        forked.current = true;
        openDialog(null);
      }}
    />
  );
}

interface RewindProps {
  dialog: Extract<CheckpointDialog, { kind: 'rewind' }>;
  onClose(): void;
  /** Where the focus goes when the dialog closes: the Send's menu button. */
  returnFocus(): HTMLElement | null;
}

function RewindDialog({ dialog, onClose, returnFocus }: RewindProps) {
  const t = useT();
  const rewind = useAppStore((s) => s.rewindTask);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const send = dialog.label;
  async function confirm() {
    setBusy(true);
    setError(null);
    const outcome = await rewind(dialog.taskId, dialog.checkpointId, dialog.mode, dialog.send);
    setBusy(false);
    if (outcome.ok) onClose();
    else setError(t('checkpoint.rewind.failed', { message: outcome.error.message }));
  }
  return (
    <ConfirmDialog
      title={t(`checkpoint.rewind.title.${dialog.mode}`, { send })}
      testId="rewind-dialog"
      mode={dialog.mode}
      error={error}
      busy={busy}
      confirmLabel={t('checkpoint.rewind.confirm')}
      onConfirm={() => void confirm()}
      onClose={onClose}
      returnFocus={returnFocus}
    >
      {rewindWords(dialog.mode).map((key) => (
        <p key={key}>{t(key, { send })}</p>
      ))}
      {dialog.mode === 'conversation' ? null : <RewindPreviewLines dialog={dialog} />}
    </ConfirmDialog>
  );
}

/** The files a rewind would touch, from a dry run: written back, removed, and the person's edits it overwrites. */
function RewindPreviewLines({ dialog }: { dialog: Extract<CheckpointDialog, { kind: 'rewind' }> }) {
  const t = useT();
  const previewRewind = useAppStore((s) => s.previewRewind);
  const [preview, setPreview] = useState<RewindPreview | null>(null);
  useEffect(() => {
    let live = true;
    void previewRewind(dialog.taskId, dialog.checkpointId, dialog.mode).then((answer) => {
      if (live) setPreview(answer);
    });
    return () => {
      live = false;
    };
  }, [previewRewind, dialog.taskId, dialog.checkpointId, dialog.mode]);
  if (!preview) {
    return (
      <p className="field-hint" data-testid="rewind-preview" data-load="loading">
        {t('checkpoint.preview.loading')}
      </p>
    );
  }
  if (!preview.ok) {
    return (
      <p className="field-hint" data-testid="rewind-preview" data-load="error">
        {t('checkpoint.preview.failed', { message: preview.error.message })}
      </p>
    );
  }
  const { restored, removed, edited } = preview;
  return (
    <div className="rewind-preview" data-testid="rewind-preview" data-load="ready">
      {restored.length + removed.length === 0 ? <p>{t('checkpoint.preview.nothing')}</p> : null}
      {restored.length > 0 ? (
        <p data-testid="rewind-preview-restored">{t('checkpoint.preview.restored', { files: listed(restored) })}</p>
      ) : null}
      {removed.length > 0 ? (
        <p data-testid="rewind-preview-removed">{t('checkpoint.preview.removed', { files: listed(removed) })}</p>
      ) : null}
      {edited.length > 0 ? (
        <p className="notice-warn" data-testid="rewind-preview-edited">
          {t('checkpoint.preview.edited', { files: listed(edited) })}
        </p>
      ) : null}
    </div>
  );
}

/** What the confirmation of each rewind says, in order. */
export function rewindWords(mode: RewindMode) {
  switch (mode) {
    case 'files':
      return ['checkpoint.rewind.files', 'checkpoint.rewind.undoable', 'checkpoint.rewind.conversationKept'] as const;
    case 'conversation':
      return ['checkpoint.rewind.conversation', 'checkpoint.rewind.filesUntouched'] as const;
    case 'both':
      return ['checkpoint.rewind.files', 'checkpoint.rewind.undoable', 'checkpoint.rewind.conversation'] as const;
    default: {
      const unknown: never = mode;
      throw new Error(`unknown rewind mode ${String(unknown)}`);
    }
  }
}

interface ForkProps {
  dialog: Extract<CheckpointDialog, { kind: 'fork' }>;
  onClose(): void;
  returnFocus(): HTMLElement | null;
  /** The new task is open now: the focus stays in it, not on this task's menu. */
  onForked(): void;
}

function ForkDialog({ dialog, onClose, returnFocus, onForked }: ForkProps) {
  const t = useT();
  const fork = useAppStore((s) => s.forkTask);
  const [instruction, setInstruction] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fieldId = useId();
  async function confirm() {
    setBusy(true);
    setError(null);
    const outcome = await fork(dialog.taskId, dialog.send, instruction.trim() || undefined);
    setBusy(false);
    if (outcome.ok) onForked();
    else setError(t('checkpoint.fork.failed', { message: outcome.error.message }));
  }
  return (
    <ConfirmDialog
      title={t('checkpoint.fork.title', { send: dialog.label })}
      testId="fork-dialog"
      error={error}
      busy={busy}
      confirmLabel={t('checkpoint.fork.confirm')}
      onConfirm={() => void confirm()}
      onClose={onClose}
      returnFocus={returnFocus}
    >
      <p>{t('checkpoint.fork.body', { send: dialog.label })}</p>
      <label className="field" htmlFor={fieldId}>
        <span>{t('checkpoint.fork.instruction')}</span>
        <textarea
          id={fieldId}
          rows={3}
          value={instruction}
          maxLength={100_000}
          onChange={(e) => setInstruction(e.target.value)}
          data-testid="fork-instruction"
        />
        <small className="field-hint">{t('checkpoint.fork.instructionHint')}</small>
      </label>
    </ConfirmDialog>
  );
}

interface ConfirmProps {
  title: string;
  testId: string;
  mode?: RewindMode;
  error: string | null;
  busy: boolean;
  confirmLabel: string;
  onConfirm(): void;
  onClose(): void;
  returnFocus(): HTMLElement | null;
  children: ReactNode;
}

/** A modal confirmation in <body>, as the app's other dialogs: the safe choice focused, Escape closes. */
function ConfirmDialog(props: ConfirmProps) {
  const { title, testId, mode, error, busy, confirmLabel, onConfirm, onClose, returnFocus, children } = props;
  const t = useT();
  const headingId = useId();
  const ref = useModalDialog(onClose, { fallback: returnFocus });
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => cancelRef.current?.focus(), []);
  return createPortal(
    <dialog ref={ref} className="modal" aria-labelledby={headingId} data-testid={testId} data-mode={mode}>
      <div className="dialog checkpoint-dialog">
        <h2 id={headingId}>{title}</h2>
        {children}
        {error ? (
          <p className="notice-error" role="alert" data-testid={`${testId}-error`}>
            {error}
          </p>
        ) : null}
        <div className="dialog-actions">
          <button ref={cancelRef} type="button" className="button" onClick={onClose} data-testid={`${testId}-cancel`}>
            {t('checkpoint.rewind.cancel')}
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={busy}
            onClick={onConfirm}
            data-testid={`${testId}-confirm`}
          >
            {confirmLabel}
          </button>
        </div>
      </div>
    </dialog>,
    document.body,
  );
}

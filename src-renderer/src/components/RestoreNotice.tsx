// What a rewind, a file revert or their undo did — the files written back and the files removed — with "Undo" while
// the state before was checkpointed (undoCheckpointId), until dismissed. Shown in the task and in its files-changed
// view. Paths come from the workspace: they go through the untrusted-text renderer.
import { useState } from 'react';
import { untrustedLine } from '../../../src-shared/untrusted-text';
import { useT } from '../hooks/useT';
import type { Translate } from '../i18n';
import type { Restore } from '../store/checkpoints-slice';
import { useAppStore } from '../store/store';

/** Paths listed in the notice before "and N more". */
const LISTED = 20;

export function RestoreNotice({ taskId }: { taskId: string }) {
  const t = useT();
  const restore = useAppStore((s) => (s.restore?.taskId === taskId ? s.restore : null));
  const undo = useAppStore((s) => s.undoRestore);
  const dismiss = useAppStore((s) => s.dismissRestore);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!restore) return null;
  const undoable = restore.undoCheckpointId !== null && restore.action !== 'undo';
  return (
    <section
      className="restore-notice"
      role="status"
      data-testid="restore-notice"
      data-action={restore.action}
      data-mode={restore.mode}
    >
      <div className="restore-text">
        {headline(t, restore).map((line) => (
          <p key={line}>{line}</p>
        ))}
        {restore.mode !== 'conversation' ? (
          restore.restored.length + restore.removed.length === 0 ? (
            <p data-testid="restore-nothing">{t('checkpoint.nothingChanged')}</p>
          ) : (
            <>
              {restore.restored.length > 0 ? (
                <p data-testid="restore-restored">{t('checkpoint.restored', { files: listed(restore.restored) })}</p>
              ) : null}
              {restore.removed.length > 0 ? (
                <p data-testid="restore-removed">{t('checkpoint.removed', { files: listed(restore.removed) })}</p>
              ) : null}
              {restore.edited.length > 0 ? (
                <p data-testid="restore-edited">{t('checkpoint.edited', { files: listed(restore.edited) })}</p>
              ) : null}
            </>
          )
        ) : null}
        {undoable ? <p className="field-hint">{t('checkpoint.undoHint')}</p> : null}
        {error ? (
          <p className="notice-error" role="alert" data-testid="restore-undo-error">
            {error}
          </p>
        ) : null}
      </div>
      <div className="restore-actions">
        {undoable ? (
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={async () => {
              setBusy(true);
              setError(null);
              const outcome = await undo();
              setBusy(false);
              if (!outcome.ok) setError(t('checkpoint.undoFailed', { message: outcome.error.message }));
            }}
            data-testid="restore-undo"
          >
            {t(restore.action === 'revert' ? 'checkpoint.undoRevert' : 'checkpoint.undo')}
          </button>
        ) : null}
        <button type="button" className="button" onClick={dismiss} data-testid="restore-dismiss">
          {t('checkpoint.dismiss')}
        </button>
      </div>
    </section>
  );
}

function headline(t: Translate, restore: Restore): string[] {
  switch (restore.action) {
    case 'rewind': {
      const send = t('invoke.send', { n: restore.send ?? 0 });
      const lines = [t('checkpoint.rewind.done', { send })];
      if (restore.mode !== 'files') lines.push(t('checkpoint.rewind.doneConversation', { send }));
      return lines;
    }
    case 'revert':
      return [t('checkpoint.reverted', { path: untrustedLine(restore.path ?? '', 300) })];
    case 'undo':
      return [t('checkpoint.undone')];
    default: {
      const unknown: never = restore.action;
      throw new Error(`unknown restore ${String(unknown)}`);
    }
  }
}

/** Workspace paths in a line, hidden characters shown, the first LISTED of them. */
export function listed(paths: readonly string[]): string {
  const shown = paths.slice(0, LISTED).map((p) => untrustedLine(p, 300));
  return paths.length > LISTED ? `${shown.join(', ')} … (+${paths.length - LISTED})` : shown.join(', ');
}

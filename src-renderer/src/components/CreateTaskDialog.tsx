// "New task": the NewTaskComposer in a modal dialog. While the empty view shows (no task open) it already is the
// composer, so the dialog only gives it the focus and closes (two composers on one screen would be one too many).
// Escape is App's shortcut.
import { useEffect, useId } from 'react';
import { useModalDialog } from '../hooks/useModalDialog';
import { useAppStore } from '../store/store';
import { NewTaskComposer } from './NewTaskComposer';

interface Props {
  onClose(): void;
}

export function CreateTaskDialog({ onClose }: Props) {
  const inPage = useAppStore((s) => s.pageComposer);
  const focusComposer = useAppStore((s) => s.focusComposer);
  const headingId = useId();
  const ref = useModalDialog(onClose);

  useEffect(() => {
    if (!inPage) return;
    focusComposer();
    onClose();
  }, [inPage, focusComposer, onClose]);

  if (inPage) return null;
  return (
    <dialog ref={ref} className="modal" aria-labelledby={headingId}>
      <div className="dialog dialog-create">
        <NewTaskComposer place="dialog" headingId={headingId} onCancel={onClose} onCreated={onClose} />
      </div>
    </dialog>
  );
}

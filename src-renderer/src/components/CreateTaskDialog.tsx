// "New task": the NewTaskComposer in a dialog. While the empty view shows (no task open) it already is the composer, so the dialog only gives it the focus and closes (two composers on one screen would be one too many).
// Escape is App's shortcut.
import { useEffect, useId } from 'react';
import { useAppStore } from '../store/store';
import { NewTaskComposer } from './NewTaskComposer';

interface Props {
  onClose(): void;
}

export function CreateTaskDialog({ onClose }: Props) {
  const inPage = useAppStore((s) => s.pageComposer);
  const focusComposer = useAppStore((s) => s.focusComposer);
  const headingId = useId();

  useEffect(() => {
    if (!inPage) return;
    focusComposer();
    onClose();
  }, [inPage, focusComposer, onClose]);

  if (inPage) return null;
  return (
    <div className="overlay">
      <div className="dialog dialog-create" role="dialog" aria-modal="true" aria-labelledby={headingId}>
        <NewTaskComposer place="dialog" headingId={headingId} onCancel={onClose} onCreated={onClose} />
      </div>
    </div>
  );
}

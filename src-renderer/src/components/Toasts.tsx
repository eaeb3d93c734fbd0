// Toasts: short-lived news (a job finished, a comment accepted, a decision refused; P7.19) in the app header's free
// stretch between its title and its buttons — in the layout, not laid over it, so a toast never covers a control
// (Cancel, Continue, a status badge, Send). The newest comes first; each goes after a few seconds or when closed, one
// about a task opens it when clicked, and a text too long for the stretch is cut with its whole on hover.
import { useEffect } from 'react';
import { useT } from '../hooks/useT';
import type { Toast } from '../store/notices-slice';
import { useAppStore } from '../store/store';

const TOAST_MS = 6000;

export function Toasts() {
  const toasts = useAppStore((s) => s.toasts);
  // Always there, even empty: a live region announces what is added to it, not a region that appears with its text.
  return (
    <ol className="toasts" data-testid="toasts" aria-live="polite">
      {toasts.toReversed().map((t) => (
        <ToastItem key={t.id} toast={t} />
      ))}
    </ol>
  );
}

function ToastItem({ toast }: { toast: Toast }) {
  const dismiss = useAppStore((s) => s.dismissToast);
  const selectTask = useAppStore((s) => s.selectTask);
  const t = useT();
  useEffect(() => {
    const timer = setTimeout(() => dismiss(toast.id), TOAST_MS);
    return () => clearTimeout(timer);
  }, [dismiss, toast.id]);
  const { taskId } = toast;
  return (
    <li className={`toast toast-${toast.tone}`} data-testid="toast" data-tone={toast.tone} title={toast.text}>
      {taskId ? (
        <button type="button" className="toast-text link-button" onClick={() => void selectTask(taskId)}>
          {toast.text}
        </button>
      ) : (
        <span className="toast-text">{toast.text}</span>
      )}
      <button type="button" className="toast-close" onClick={() => dismiss(toast.id)} aria-label={t('toast.close')}>
        ×
      </button>
    </li>
  );
}

// Toasts: short-lived news in a corner (a job finished, a comment accepted, a decision refused; P7.19). Each goes
// after a few seconds or when closed; one about a task opens it when clicked.
import { useEffect } from 'react';
import { useT } from '../i18n';
import type { Toast } from '../store/notices-slice';
import { useAppStore } from '../store/store';

const TOAST_MS = 6000;

export function Toasts() {
  const toasts = useAppStore((s) => s.toasts);
  if (toasts.length === 0) return null;
  return (
    <ol className="toasts" data-testid="toasts" aria-live="polite">
      {toasts.map((t) => (
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
    <li className={`toast toast-${toast.tone}`} data-testid="toast" data-tone={toast.tone}>
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

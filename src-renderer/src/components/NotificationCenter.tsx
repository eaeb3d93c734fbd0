// NotificationCenter: the bell in the header with the count of tasks that need the user (a tool or package decision,
// a question, an MCP sign-in, a failure) and the list behind it; an entry opens its task and goes when resolved
// (P7.20). Entries are derived from the task list and latest jobs, so they are right after a reload. The list is a
// modal dialog placed under the bell: the focus stays in it, a click beside it or Escape closes it, and the focus goes
// back to the bell.
import { type CSSProperties, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useModalDialog } from '../hooks/useModalDialog';
import { useLocale, useT } from '../hooks/useT';
import { type ActionItem, actionItems } from '../store/action-items';
import { selectLatestJobs, selectTasks } from '../store/entity-selectors';
import { useAppStore } from '../store/store';
import { formatTime } from './format';
import { UntrustedLine } from './UntrustedText';

export function NotificationCenter() {
  const { tasks, latestJobs, dismissed, asking } = useAppStore(
    useShallow((s) => ({
      tasks: selectTasks(s),
      latestJobs: selectLatestJobs(s),
      dismissed: s.dismissedFailures,
      asking: s.entities.asking,
    })),
  );
  const items = useMemo(
    () => actionItems(tasks, latestJobs, dismissed, asking),
    [tasks, latestJobs, dismissed, asking],
  );
  /** Where the list shows while open (under the bell, its right edge on the bell's), or null when closed. */
  const [place, setPlace] = useState<CSSProperties | null>(null);
  const t = useT();

  const count = items.length;
  return (
    <div className="notifications">
      <button
        type="button"
        className={count > 0 ? 'bell bell-active' : 'bell'}
        onClick={(e) => {
          const bell = e.currentTarget.getBoundingClientRect();
          setPlace({ top: bell.bottom + 6, right: Math.max(8, window.innerWidth - bell.right) });
        }}
        aria-expanded={place !== null}
        aria-label={count === 0 ? t('notify.bellNone') : t('notify.bellCount', { count })}
        data-testid="notification-bell"
        data-count={count}
      >
        <BellIcon />
        {count > 0 ? (
          <span className="bell-count" data-testid="notification-count">
            {count}
          </span>
        ) : null}
      </button>
      {place ? <NotificationList items={items} place={place} onClose={() => setPlace(null)} /> : null}
    </div>
  );
}

function NotificationList({ items, place, onClose }: { items: ActionItem[]; place: CSSProperties; onClose(): void }) {
  const ref = useModalDialog(onClose, { lightDismiss: true });
  const t = useT();
  return (
    <dialog ref={ref} className="modal modal-clear" aria-label={t('notify.title')} data-testid="notification-center">
      <div className="notification-center" style={place}>
        <h2 className="notification-title">{t('notify.title')}</h2>
        {items.length === 0 ? (
          <p className="notice" data-testid="notification-empty">
            {t('notify.empty')}
          </p>
        ) : (
          <ul className="notification-list">
            {items.map((item) => (
              <NotificationEntry key={item.taskId} item={item} onOpened={onClose} />
            ))}
          </ul>
        )}
      </div>
    </dialog>
  );
}

function NotificationEntry({ item, onOpened }: { item: ActionItem; onOpened(): void }) {
  const selectTask = useAppStore((s) => s.selectTask);
  const dismissFailure = useAppStore((s) => s.dismissFailure);
  const { jobId } = item;
  const t = useT();
  const locale = useLocale();
  return (
    <li className={`notification notification-${item.reason}`}>
      <button
        type="button"
        className="notification-open"
        onClick={() => {
          onOpened();
          void selectTask(item.taskId);
        }}
        data-testid="notification-entry"
        data-task-id={item.taskId}
        data-reason={item.reason}
      >
        <span className="notification-task">
          <UntrustedLine text={item.title} />
        </span>
        <span className="notification-reason">{t(`notify.reason.${item.reason}`)}</span>
        {item.detail ? (
          <span className="notification-detail">
            <UntrustedLine text={item.detail} />
          </span>
        ) : null}
        <time dateTime={item.at}>{formatTime(item.at, locale)}</time>
      </button>
      {item.reason === 'failed' && jobId ? (
        <button
          type="button"
          className="link-button notification-dismiss"
          onClick={() => dismissFailure(jobId)}
          data-testid="notification-dismiss"
        >
          {t('notify.dismiss')}
        </button>
      ) : null}
    </li>
  );
}

function BellIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z"
      />
    </svg>
  );
}

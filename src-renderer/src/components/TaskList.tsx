// The task list in the sidebar: newest first, each with its title, status and age; a click selects it. A selection
// made elsewhere (the next-waiting-task shortcut, a notification) scrolls its row into view.
import { useEffect, useRef } from 'react';
import { useT } from '../i18n';
import { useAppStore } from '../store/store';
import { formatTime } from './format';
import { StatusBadge } from './StatusBadge';

export function TaskList() {
  const tasks = useAppStore((s) => s.tasks);
  const load = useAppStore((s) => s.tasksLoad);
  const error = useAppStore((s) => s.tasksError);
  const selectedTaskId = useAppStore((s) => s.selectedTaskId);
  const selectTask = useAppStore((s) => s.selectTask);
  const selectedRef = useRef<HTMLButtonElement>(null);
  const t = useT();

  useEffect(() => {
    if (selectedTaskId) selectedRef.current?.scrollIntoView({ block: 'nearest' });
  }, [selectedTaskId]);

  if (load === 'error') {
    return (
      <p className="notice notice-error" data-testid="task-list-error">
        {t('taskList.error', { error: error ?? '' })}
      </p>
    );
  }
  if (tasks.length === 0) {
    return (
      <p className="notice" data-testid="task-list-empty">
        {load === 'loading' ? t('taskList.loading') : t('taskList.empty')}
      </p>
    );
  }
  return (
    <ul className="task-list" data-testid="task-list" aria-label={t('app.tasks')}>
      {tasks.map((task) => {
        const selected = task.id === selectedTaskId;
        return (
          <li key={task.id}>
            <button
              ref={selected ? selectedRef : undefined}
              type="button"
              className={`task-item${selected ? ' task-item-selected' : ''}`}
              data-testid="task-item"
              data-task-id={task.id}
              aria-current={selected ? 'true' : undefined}
              onClick={() => void selectTask(task.id)}
            >
              <span className="task-item-title" data-testid="task-title">
                {task.title}
              </span>
              <span className="task-item-meta">
                <StatusBadge status={task.status} />
                <time dateTime={task.createdAt}>{formatTime(task.createdAt)}</time>
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

// The task list in the sidebar: a search box, a "Show archived" toggle, and the tasks newest first with their subtasks
// indented under them (foldable), each with its title, status and age and a menu (reflect on it, rename in place — also by a
// double-click on the title —, archive, delete after a confirmation). A rename is the person's title: the host never
// replaces it with the one it makes for a new task. A click selects a task; a selection made elsewhere (the next-waiting-task shortcut, a
// notification) scrolls its row into view. The list comes a page at a time: the next page loads as its end scrolls
// into view (or on "Show older tasks"), and a search or the archive also asks the host for its own first page, so a
// match that is not loaded yet is found.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Task } from '../../../src-shared/entities';
import { untrustedLine } from '../../../src-shared/untrusted-text';
import { useLocale, useT } from '../hooks/useT';
import { selectTasks } from '../store/entity-selectors';
import { useAppStore } from '../store/store';
import type { LoadState } from '../store/types';
import { formatTime } from './format';
import { StatusBadge } from './StatusBadge';
import { TaskDeleteDialog } from './TaskDeleteDialog';
import { descendantCount, type TaskRow, taskRows } from './task-nav';
import { UntrustedLine } from './UntrustedText';

export function TaskList() {
  const tasks = useAppStore((s) => selectTasks(s));
  const load = useAppStore((s) => s.tasksLoad);
  const error = useAppStore((s) => s.tasksError);
  const t = useT();
  const [query, setQuery] = useState('');
  const [showArchived, setShowArchived] = useState(false);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set());
  const [deleting, setDeleting] = useState<Task | null>(null);
  const rows = useMemo(
    () => taskRows(tasks, { query, showArchived, collapsed }),
    [tasks, query, showArchived, collapsed],
  );
  const archivedCount = useMemo(() => tasks.filter((task) => task.archivedAt !== null).length, [tasks]);
  const more = useAppStore((s) => (s.tasksNext === null ? null : s.tasksMore));
  const loadTaskPage = useAppStore((s) => s.loadTaskPage);

  // A search waits for the typing to pause; the archive is asked for once it is shown.
  const search = query.trim();
  useEffect(() => {
    if (search === '') return;
    const timer = setTimeout(() => void loadTaskPage({ q: search.slice(0, 200) }), 250);
    return () => clearTimeout(timer);
  }, [search, loadTaskPage]);
  useEffect(() => {
    if (showArchived) void loadTaskPage({ archived: true });
  }, [showArchived, loadTaskPage]);

  const toggle = (taskId: string) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (!next.delete(taskId)) next.add(taskId);
      return next;
    });

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
    <div className="task-list-panel">
      <div className="task-list-tools">
        <input
          type="search"
          className="task-search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder={t('tasks.searchPlaceholder')}
          aria-label={t('tasks.search')}
          data-testid="task-search"
        />
        {/* With pages still to load, archived tasks may be among them: the toggle is there, without a count. */}
        {archivedCount > 0 || more !== null ? (
          <label className="task-archived-toggle">
            <input
              type="checkbox"
              checked={showArchived}
              onChange={(e) => setShowArchived(e.target.checked)}
              data-testid="show-archived"
            />
            {more === null ? t('tasks.showArchived', { count: archivedCount }) : t('tasks.showArchivedPaged')}
          </label>
        ) : null}
      </div>
      {rows.length === 0 ? (
        <p className="notice" data-testid="task-list-no-match">
          {t('tasks.noMatch', { query: query.trim() })}
        </p>
      ) : (
        <ul className="task-list" data-testid="task-list" aria-label={t('app.tasks')}>
          {rows.map((row) => (
            <TaskListItem
              key={row.task.id}
              row={row}
              folded={collapsed.has(row.task.id) && query.trim() === ''}
              onToggle={() => toggle(row.task.id)}
              onDelete={() => setDeleting(row.task)}
            />
          ))}
        </ul>
      )}
      {/* A search has its own page from the host: older pages then load on a click only, not all of them at once. */}
      {more === null ? null : <MoreTasks state={more} auto={search === ''} />}
      {deleting ? (
        <TaskDeleteDialog
          task={deleting}
          subtasks={descendantCount(tasks, deleting.id)}
          onClose={() => setDeleting(null)}
        />
      ) : null}
    </div>
  );
}

/**
 * The end of a list with older pages: loads the next one while it is in view (again after each page, until the list
 * reaches past the view) when `auto`, or when clicked; after a failure it waits for the click.
 */
function MoreTasks({ state, auto }: { state: LoadState; auto: boolean }) {
  const loadMore = useAppStore((s) => s.loadMoreTasks);
  const t = useT();
  const ref = useRef<HTMLDivElement>(null);

  // Observed afresh each time the list is idle again: the first report of a new observer is taken after the page just
  // added is laid out, so a page that pushed the end out of view is the last one loaded until the next scroll.
  useEffect(() => {
    const element = ref.current;
    if (!auto || state !== 'idle' || !element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void loadMore();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [auto, state, loadMore]);

  return (
    <div ref={ref} className="task-list-more" data-testid="task-list-more" data-state={state}>
      <button type="button" disabled={state === 'loading'} onClick={() => void loadMore()}>
        {t(state === 'loading' ? 'tasks.moreLoading' : state === 'error' ? 'tasks.moreFailed' : 'tasks.more')}
      </button>
    </div>
  );
}

interface ItemProps {
  row: TaskRow;
  folded: boolean;
  onToggle(): void;
  onDelete(): void;
}

function TaskListItem({ row, folded, onToggle, onDelete }: ItemProps) {
  const { task, depth, childCount } = row;
  const selected = useAppStore((s) => s.selectedTaskId === task.id);
  const selectTask = useAppStore((s) => s.selectTask);
  const renameTask = useAppStore((s) => s.renameTask);
  const archiveTask = useAppStore((s) => s.archiveTask);
  const reflectOnTask = useAppStore((s) => s.reflectOnTask);
  const pushToast = useAppStore((s) => s.pushToast);
  const t = useT();
  const locale = useLocale();
  const [menu, setMenu] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const selectedRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (selected) selectedRef.current?.scrollIntoView({ block: 'nearest' });
  }, [selected]);

  // The menu closes on a click anywhere else, or Escape.
  useEffect(() => {
    if (!menu) return;
    const close = (e: Event) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !menuRef.current?.contains(e.target as Node))
        setMenu(false);
    };
    document.addEventListener('pointerdown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('pointerdown', close);
      document.removeEventListener('keydown', close);
    };
  }, [menu]);

  // Enter saves, and so does leaving the field; the flag keeps the two from saving twice.
  const renameDone = useRef(false);
  async function rename(title: string) {
    if (renameDone.current) return;
    renameDone.current = true;
    setRenaming(false);
    const trimmed = title.trim();
    if (trimmed === '' || trimmed === task.title) return;
    const failure = await renameTask(task.id, trimmed);
    if (failure) pushToast({ tone: 'error', text: t('tasks.renameFailed', { message: failure.message }) });
  }

  const startRename = () => {
    setMenu(false);
    renameDone.current = false;
    setRenaming(true);
  };

  /** A look back at the task now (P2.08): its lessons come as cards in its chat. */
  async function reflect() {
    setMenu(false);
    const failure = await reflectOnTask(task.id);
    pushToast(
      failure
        ? { tone: 'error', text: t('lessons.reflectFailed', { message: failure.message }) }
        : { tone: 'info', text: t('lessons.reflectQueued') },
    );
  }

  async function archive() {
    setMenu(false);
    const archived = task.archivedAt === null;
    const failure = await archiveTask(task.id, archived);
    if (failure) pushToast({ tone: 'error', text: t('tasks.archiveFailed', { message: failure.message }) });
    else if (archived)
      pushToast({ tone: 'info', text: t('tasks.archivedNews', { title: untrustedLine(task.title, 200) }) });
  }

  return (
    <li
      className={`task-row${task.archivedAt ? ' task-row-archived' : ''}`}
      style={{ paddingInlineStart: depth * 14 }}
      data-testid="task-row"
      data-task-id={task.id}
      data-depth={depth}
    >
      {childCount > 0 ? (
        <button
          type="button"
          className="task-fold"
          aria-expanded={!folded}
          aria-label={t(folded ? 'tasks.expand' : 'tasks.collapse', { title: task.title })}
          title={t('tasks.subtasks', { count: childCount })}
          onClick={onToggle}
          data-testid="task-fold"
        >
          {folded ? '▸' : '▾'}
        </button>
      ) : (
        <span className="task-fold-space" />
      )}
      {renaming ? (
        <input
          className="task-rename"
          defaultValue={task.title}
          maxLength={200}
          aria-label={t('tasks.renameLabel', { title: task.title })}
          // biome-ignore lint/a11y/noAutofocus: the field opens because the person chose "Rename"
          autoFocus
          onFocus={(e) => e.currentTarget.select()}
          onKeyDown={(e) => {
            if (e.key === 'Enter') void rename(e.currentTarget.value);
            else if (e.key === 'Escape') {
              renameDone.current = true;
              setRenaming(false);
            }
          }}
          onBlur={(e) => void rename(e.currentTarget.value)}
          data-testid="task-rename-input"
        />
      ) : (
        <button
          ref={selected ? selectedRef : undefined}
          type="button"
          className={`task-item${selected ? ' task-item-selected' : ''}`}
          data-testid="task-item"
          data-task-id={task.id}
          aria-current={selected ? 'true' : undefined}
          onClick={() => void selectTask(task.id)}
          onDoubleClick={startRename}
          title={t('tasks.renameHint')}
        >
          <span className="task-item-title" data-testid="task-title">
            <UntrustedLine text={task.title} />
          </span>
          <span className="task-item-meta">
            <StatusBadge status={task.status} />
            {task.archivedAt ? <span className="task-archived-badge">{t('tasks.archivedBadge')}</span> : null}
            <time dateTime={task.createdAt}>{formatTime(task.createdAt, locale)}</time>
          </span>
        </button>
      )}
      <div className="task-menu" ref={menuRef}>
        <button
          type="button"
          className="task-menu-button"
          aria-haspopup="menu"
          aria-expanded={menu}
          aria-label={t('tasks.menu', { title: task.title })}
          onClick={() => setMenu(!menu)}
          data-testid="task-menu"
        >
          ⋯
        </button>
        {menu ? (
          <div className="task-menu-items" role="menu" data-testid="task-menu-items">
            <button type="button" role="menuitem" onClick={startRename} data-testid="task-rename">
              {t('tasks.rename')}
            </button>
            <button type="button" role="menuitem" onClick={() => void reflect()} data-testid="task-reflect">
              {t('lessons.reflect')}
            </button>
            <button type="button" role="menuitem" onClick={() => void archive()} data-testid="task-archive">
              {t(task.archivedAt ? 'tasks.unarchive' : 'tasks.archive')}
            </button>
            <button
              type="button"
              role="menuitem"
              className="task-menu-danger"
              onClick={() => {
                setMenu(false);
                onDelete();
              }}
              data-testid="task-delete"
            >
              {t('tasks.delete')}
            </button>
          </div>
        ) : null}
      </div>
    </li>
  );
}

// The window: a header with the sidebar toggle, the live indicator, the notification bell, the shortcuts help, Settings
// and "New task", the task list (in a sidebar that folds away, remembered across reloads) beside the selected task,
// and toasts for short-lived news; it keeps <html> in step with the chosen theme and language, and owns the keyboard
// shortcuts (hooks/shortcuts.ts) and the dialogs they open and close.
import { useCallback, useEffect, useState } from 'react';
import { CreateTaskDialog } from './components/CreateTaskDialog';
import { FirstRunSetup } from './components/FirstRunSetup';
import { HostBadge } from './components/HostSettings';
import { LinkConfirmHost } from './components/LinkConfirm';
import { NotificationCenter } from './components/NotificationCenter';
import { SettingsDialog } from './components/SettingsDialog';
import { ShortcutHelp } from './components/ShortcutHelp';
import { useStopJob } from './components/StopJob';
import { TaskList } from './components/TaskList';
import { TaskView } from './components/TaskView';
import { Toasts } from './components/Toasts';
import { nextWaitingTaskId } from './components/task-nav';
import { ariaKeyShortcuts, shortcutKeys } from './hooks/shortcuts';
import { decideFocusedCard, focusPendingDecision, IS_MAC, useShortcuts } from './hooks/useShortcuts';
import { useT } from './hooks/useT';
import { selectTasks } from './store/entity-selectors';
import { useAppStore } from './store/store';
import { applyTheme } from './theme';

const SIDEBAR_KEY = 'maestro.sidebar';

function storedSidebarOpen(): boolean {
  try {
    return globalThis.localStorage?.getItem(SIDEBAR_KEY) !== 'collapsed';
  } catch {
    return true;
  }
}

/** Whether the sidebar shows, kept in localStorage (a storage that refuses keeps it until the next reload). */
function useSidebar(): [boolean, () => void] {
  const [open, setOpen] = useState(storedSidebarOpen);
  const toggle = useCallback(() => setOpen((was) => !was), []);
  useEffect(() => {
    try {
      globalThis.localStorage?.setItem(SIDEBAR_KEY, open ? 'open' : 'collapsed');
    } catch {
      // Storage unavailable: the choice lasts until the next reload.
    }
  }, [open]);
  return [open, toggle];
}

export function App() {
  const live = useAppStore((s) => s.live);
  const startLive = useAppStore((s) => s.startLive);
  const loadTasks = useAppStore((s) => s.loadTasks);
  const loadPieces = useAppStore((s) => s.loadPieces);
  const loadProfiles = useAppStore((s) => s.loadProfiles);
  const theme = useAppStore((s) => s.theme);
  const locale = useAppStore((s) => s.locale);
  const tasks = useAppStore((s) => selectTasks(s));
  const selectedTaskId = useAppStore((s) => s.selectedTaskId);
  const selectTask = useAppStore((s) => s.selectTask);
  const pushToast = useAppStore((s) => s.pushToast);
  const t = useT();
  const [creating, setCreating] = useState(false);
  const [settings, setSettings] = useState(false);
  const [help, setHelp] = useState(false);
  const [sidebarOpen, toggleSidebar] = useSidebar();
  const closeDialog = useCallback(() => setCreating(false), []);
  // Settings also opens at a section (openSettingsAt: a failed model call's Edit profile); the setup shows while there
  // is no profile to run with.
  const settingsAt = useAppStore((s) => s.settingsAt);
  const closeSettingsAt = useAppStore((s) => s.closeSettingsAt);
  const setup = useAppStore(
    (s) =>
      s.setupOpen ||
      (s.profilesLoad === 'ready' && s.profiles.length === 0 && s.profileErrors.length === 0 && !s.selectedTaskId),
  );
  const closeSettings = useCallback(() => {
    setSettings(false);
    closeSettingsAt();
  }, [closeSettingsAt]);
  const closeHelp = useCallback(() => setHelp(false), []);

  const stopJob = useStopJob();
  useShortcuts(
    {
      newTask: () => setCreating(true),
      approveOnce: () => void decideFocusedCard('approve'),
      deny: () => void decideFocusedCard('deny'),
      focusDecision: () => {
        if (!focusPendingDecision()) pushToast({ tone: 'info', text: t('shortcuts.noDecision') });
      },
      nextWaiting: () => {
        const next = nextWaitingTaskId(tasks, selectedTaskId);
        if (next) void selectTask(next);
        else pushToast({ tone: 'info', text: t('shortcuts.noneWaiting') });
      },
      help: () => setHelp(true),
      toggleSidebar,
      stop: () => {
        if (selectedTaskId) void stopJob(selectedTaskId);
      },
      // The topmost first: the help can only open when no other dialog is, the others never stack.
      closeDialog: () => {
        if (help) setHelp(false);
        else if (creating) setCreating(false);
        else closeSettings();
      },
    },
    IS_MAC,
  );

  useEffect(() => {
    const stop = startLive();
    void loadTasks();
    void loadPieces();
    void loadProfiles();
    return stop;
  }, [startLive, loadTasks, loadPieces, loadProfiles]);

  useEffect(() => applyTheme(theme), [theme]);
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);

  return (
    <div className="app">
      <header className="app-header">
        <button
          type="button"
          className="button button-icon"
          onClick={toggleSidebar}
          aria-expanded={sidebarOpen}
          aria-controls="task-sidebar"
          aria-label={t(sidebarOpen ? 'sidebar.hide' : 'sidebar.show')}
          title={`${t(sidebarOpen ? 'sidebar.hide' : 'sidebar.show')} (${shortcutKeys('toggleSidebar', IS_MAC)})`}
          aria-keyshortcuts={ariaKeyShortcuts('toggleSidebar', IS_MAC)}
          data-testid="toggle-sidebar"
        >
          ☰
        </button>
        <h1>MAESTRO</h1>
        <HostBadge />
        <span className={`live live-${live}`} data-testid="live-indicator" data-live={live}>
          {t(`app.live.${live}`)}
        </span>
        <Toasts />
        <div className="header-action">
          <NotificationCenter />
        </div>
        <button
          type="button"
          className="button button-icon"
          onClick={() => setHelp(true)}
          aria-label={t('shortcuts.open')}
          title={t('shortcuts.open')}
          aria-keyshortcuts="?"
          data-testid="open-shortcuts"
        >
          ?
        </button>
        <button
          type="button"
          className="button button-icon"
          onClick={() => setSettings(true)}
          aria-label={t('app.settings')}
          title={t('app.settings')}
          data-testid="open-settings"
        >
          ⚙
        </button>
        <button
          type="button"
          className="button button-primary"
          onClick={() => setCreating(true)}
          title={shortcutKeys('newTask', IS_MAC)}
          data-testid="new-task"
        >
          {t('app.newTask')}
        </button>
      </header>
      <div className="app-body">
        <nav
          id="task-sidebar"
          className="sidebar"
          aria-label={t('app.tasks')}
          hidden={!sidebarOpen}
          data-testid="sidebar"
        >
          <TaskList />
        </nav>
        <main className="main">
          {setup ? <FirstRunSetup onDone={() => setCreating(!selectedTaskId)} /> : <TaskView />}
        </main>
      </div>
      {creating ? <CreateTaskDialog onClose={closeDialog} /> : null}
      {settings || settingsAt ? <SettingsDialog onClose={closeSettings} /> : null}
      {help ? <ShortcutHelp onClose={closeHelp} /> : null}
      <LinkConfirmHost />
    </div>
  );
}

// Inside Electron: tells the shell which task is on screen (so no OS notification is shown for it) and opens the task
// a notification or the tray menu names. Over HTTP there is no shell and nothing happens.
import type { ShellLink } from './api/client';
import type { AppStore } from './store/store';

export function linkShell(shell: ShellLink | undefined, store: AppStore): () => void {
  if (!shell) return () => {};
  shell.setViewingTask(store.getState().selectedTaskId);
  const unsubscribe = store.subscribe((state, previous) => {
    if (state.selectedTaskId !== previous.selectedTaskId) shell.setViewingTask(state.selectedTaskId);
  });
  const stopOpening = shell.onOpenTask((taskId) => void store.getState().selectTask(taskId));
  return () => {
    unsubscribe();
    stopOpening();
  };
}

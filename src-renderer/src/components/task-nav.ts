// Moving through the tasks that wait for the user from the keyboard (the next-waiting-task shortcut).
import type { Task } from '../../../src-shared/entities';

/**
 * The next task after the selected one, in list order (newest first) and wrapping round, whose job waits for the
 * user; from the top when nothing is selected. Null when no other task waits.
 */
export function nextWaitingTaskId(tasks: readonly Task[], selectedId: string | null): string | null {
  const start = tasks.findIndex((t) => t.id === selectedId);
  for (let step = 1; step <= tasks.length; step++) {
    const task = tasks[(start + step) % tasks.length];
    if (task && task.status === 'waiting_human' && task.id !== selectedId) return task.id;
  }
  return null;
}

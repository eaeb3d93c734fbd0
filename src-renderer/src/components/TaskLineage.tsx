// A forked task's link to the task and Send it was forked from, and a task's forks (the tasks forked from it), each
// opening that task. Nothing is shown for a task with neither.
import { useShallow } from 'zustand/react/shallow';
import type { Task } from '../../../src-shared/entities';
import { untrustedLine } from '../../../src-shared/untrusted-text';
import { useT } from '../hooks/useT';
import { selectTasks } from '../store/entity-selectors';
import { useAppStore } from '../store/store';

export function TaskLineage({ task }: { task: Task }) {
  const t = useT();
  const selectTask = useAppStore((s) => s.selectTask);
  const from = task.forkedFrom ?? null;
  const origin = useAppStore((s) => (from ? (selectTasks(s).find((x) => x.id === from.taskId) ?? null) : null));
  const forks = useAppStore(useShallow((s) => selectTasks(s).filter((x) => x.forkedFrom?.taskId === task.id)));
  if (!from && forks.length === 0) return null;
  return (
    <div className="task-lineage" data-testid="task-lineage">
      {from ? (
        <p
          className="task-lineage-line"
          data-testid="task-forked-from"
          data-task-id={from.taskId}
          data-send={from.send}
        >
          {origin ? (
            <button
              type="button"
              className="link-button"
              onClick={() => void selectTask(origin.id)}
              data-testid="task-forked-from-link"
            >
              {t('checkpoint.forkedFrom', {
                title: untrustedLine(origin.title, 200),
                send: t('invoke.send', { n: from.send }),
              })}
            </button>
          ) : (
            t('checkpoint.forkedFromGone', { send: t('invoke.send', { n: from.send }) })
          )}
        </p>
      ) : null}
      {forks.length > 0 ? (
        <p className="task-lineage-line" data-testid="task-forks">
          <span>{t('checkpoint.forks')}</span>
          {forks.map((fork) => (
            <button
              key={fork.id}
              type="button"
              className="link-button"
              onClick={() => void selectTask(fork.id)}
              data-testid="task-fork-link"
              data-task-id={fork.id}
            >
              {t('checkpoint.forkAt', {
                title: untrustedLine(fork.title, 200),
                send: t('invoke.send', { n: fork.forkedFrom?.send ?? 0 }),
              })}
            </button>
          ))}
        </p>
      ) : null}
    </div>
  );
}

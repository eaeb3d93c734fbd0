// Many tasks at once, straight through the repositories in one transaction (for paging tests and bench/scale-tasks):
// each a task with its instruction, one job in the given status (succeeded: finished) and, when finished, its result.
import type { Store } from '../src-main/db/store';
import type { JobStatus } from '../src-shared/entities';

export interface SeedOptions {
  /** created_at of the first (oldest) task; the next ones follow `step` ms apart. */
  from?: number;
  step?: number;
  status?: JobStatus;
  workspacePath?: string;
  spaceId?: string;
  /** The title of task i (0 = the oldest). */
  title?: (i: number) => string;
  archived?: (i: number) => boolean;
}

/** Returns the ids, oldest first. */
export function seedTasks(store: Store, count: number, options: SeedOptions = {}): string[] {
  const { from = Date.now() - count * 1000, step = 1000, status = 'succeeded' } = options;
  const setStatus = store.db.prepare<[JobStatus, string | null, number, string]>(
    'UPDATE jobs SET status = ?, wait_reason = ?, updated_at = ? WHERE id = ?',
  );
  const ids: string[] = [];
  store.db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const at = from + i * step;
      const id = `task_seed_${at.toString(36)}_${i}`;
      store.tasks.insert({
        id,
        title: options.title?.(i) ?? `Seeded task ${i}`,
        instruction: `Do thing number ${i}`,
        pieceId: 'default',
        workspacePath: options.workspacePath ?? '/tmp/ws',
        workspaceKind: 'persistent',
        profile: null,
        parentTaskId: null,
        createdAt: at,
        spaceId: options.spaceId ?? null,
      });
      const job = store.jobs.insert({ taskId: id, pieceId: 'default', profile: null, pendingInvoke: 'UserSend' }, at);
      store.comments.insert(
        { taskId: id, jobId: job.id, author: 'user', kind: 'instruction', body: `Do thing ${i}` },
        at,
      );
      if (status !== 'queued') setStatus.run(status, status === 'waiting_human' ? 'ask' : null, at + 1, job.id);
      if (status === 'succeeded') {
        store.comments.insert(
          { taskId: id, jobId: job.id, author: 'agent', kind: 'result', body: `Done ${i}` },
          at + 1,
        );
      }
      if (options.archived?.(i)) store.tasks.setArchived(id, at + 2);
      ids.push(id);
    }
  })();
  return ids;
}

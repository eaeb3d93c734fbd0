// Pages of a task's comments (latestForTask, pageBefore): order, boundaries, counts, ties within a millisecond, the
// index they read, and anchors that are unknown or another task's.
import { describe, expect, it } from 'vitest';
import { insertJob, insertTask, tempStore } from '../../../test-support/db';
import type { Store } from '../store';
import { PAGE_SQL } from './comments';

/** `count` comments of a new task, `step` ms apart (0: all in one millisecond); returns the task id and their ids. */
function seed(store: Store, count: number, step = 1): { taskId: string; ids: string[] } {
  const taskId = insertTask(store);
  const job = insertJob(store, taskId);
  const ids = store.transact(() =>
    Array.from(
      { length: count },
      (_, i) =>
        store.comments.insert(
          { taskId, jobId: job.id, author: 'user', kind: 'comment', body: `#${i}` },
          1000 + i * step,
        ).id,
    ),
  );
  return { taskId, ids };
}

describe('comment pages', () => {
  it('latestForTask: the latest `limit` comments oldest first, with the count of older ones', () => {
    const store = tempStore();
    const { taskId, ids } = seed(store, 12);
    const other = seed(store, 3);
    expect(store.comments.latestForTask(taskId, 5)).toEqual({
      comments: ids.slice(7).map((id) => expect.objectContaining({ id, taskId })),
      olderCount: 7,
    });
    expect(store.comments.latestForTask(taskId, 12).olderCount).toBe(0);
    expect(store.comments.latestForTask(taskId, 50).comments.map((c) => c.id)).toEqual(ids);
    expect(store.comments.latestForTask(other.taskId, 5).comments.map((c) => c.id)).toEqual(other.ids);
    expect(store.comments.latestForTask('task_none', 5)).toEqual({ comments: [], olderCount: 0 });
  });

  it('pageBefore walks back page by page to the first comment, with nothing skipped or repeated', () => {
    const store = tempStore();
    const { taskId, ids } = seed(store, 23);
    let page = store.comments.latestForTask(taskId, 5);
    const seen = [...page.comments.map((c) => c.id)];
    const counts = [page.olderCount];
    while (page.olderCount > 0) {
      const first = page.comments[0]?.id as string;
      page = store.comments.pageBefore(taskId, first, 5) as typeof page;
      seen.unshift(...page.comments.map((c) => c.id));
      counts.push(page.olderCount);
    }
    expect(seen).toEqual(ids);
    expect(counts).toEqual([18, 13, 8, 3, 0]);
    // The last page is short; before the very first comment there is nothing.
    expect(store.comments.pageBefore(taskId, ids[3] as string, 5)?.comments.map((c) => c.id)).toEqual(ids.slice(0, 3));
    expect(store.comments.pageBefore(taskId, ids[0] as string, 5)).toEqual({ comments: [], olderCount: 0 });
  });

  it('comments of the same millisecond page in arrival order (rowid breaks the tie)', () => {
    const store = tempStore();
    const { taskId, ids } = seed(store, 9, 0);
    expect(store.comments.listForTask(taskId).map((c) => c.id)).toEqual(ids);
    const latest = store.comments.latestForTask(taskId, 4);
    expect(latest.comments.map((c) => c.id)).toEqual(ids.slice(5));
    expect(latest.olderCount).toBe(5);
    const before = store.comments.pageBefore(taskId, ids[5] as string, 4);
    expect(before?.comments.map((c) => c.id)).toEqual(ids.slice(1, 5));
    expect(before?.olderCount).toBe(1);
  });

  it('an unknown comment, or a comment of another task, has no page (null)', () => {
    const store = tempStore();
    const one = seed(store, 3);
    const two = seed(store, 3);
    expect(store.comments.pageBefore(one.taskId, 'cmt_missing', 5)).toBeNull();
    expect(store.comments.pageBefore(one.taskId, two.ids[2] as string, 5)).toBeNull();
    expect(store.comments.pageBefore('task_none', one.ids[2] as string, 5)).toBeNull();
  });

  it('the pages read the comments_by_task index in its order: no table scan, no sort', () => {
    const store = tempStore();
    const plan = (sql: string, ...args: unknown[]) =>
      (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[])
        .map((r) => r.detail)
        .join(' | ');
    const latest = plan(PAGE_SQL.latest, 't', 5);
    expect(latest).toMatch(/USING INDEX comments_by_task \(task_id=\?\)/);
    const before = plan(PAGE_SQL.before, 't', 1, 1, 5);
    expect(before).toMatch(/USING INDEX comments_by_task \(task_id=\? AND created_at<\?\)/);
    for (const p of [latest, before]) expect(p).not.toMatch(/TEMP B-TREE|SCAN/);
    expect(plan(PAGE_SQL.countBefore, 't', 1, 1)).toMatch(/USING COVERING INDEX comments_by_task/);
  });
});

import { describe, expect, it } from 'vitest';
import { insertJob, insertTask, storeDialects, tempStore, useStoreDialect } from '../../../test-support/db';

describe.each(storeDialects())('comments repository (%s)', (dialect) => {
  useStoreDialect(dialect);
  it('insert → listForTask/listForJob round trip, in arrival order', () => {
    const store = tempStore();
    const taskId = insertTask(store);
    const job = insertJob(store, taskId);
    const a = store.comments.insert(
      { taskId, jobId: job.id, author: 'user', kind: 'instruction', body: 'do it' },
      Date.UTC(2030, 0, 1),
    );
    expect(a).toEqual({
      id: expect.stringMatching(/^cmt_/),
      taskId,
      jobId: job.id,
      author: 'user',
      kind: 'instruction',
      body: 'do it',
      createdAt: '2030-01-01T00:00:00.000Z',
    });
    const b = store.comments.insert({ taskId, jobId: null, author: 'system', kind: 'error', body: 'x' }, 5);
    const c = store.comments.insert({ taskId, jobId: job.id, author: 'agent', kind: 'result', body: 'y' }, 5);
    expect(store.comments.listForTask(taskId).map((x) => x.id)).toEqual([b.id, c.id, a.id]);
    expect(store.comments.listForJob(job.id).map((x) => x.id)).toEqual([c.id, a.id]);
    expect(store.comments.listForTask('task_none')).toEqual([]);
  });

  it('undeliveredInterjections lists only that job’s undelivered interjections; markDelivered is a CAS (A#9)', () => {
    const store = tempStore();
    const taskId = insertTask(store);
    const job = insertJob(store, taskId);
    const other = insertJob(store, taskId);
    const first = store.comments.insert({ taskId, jobId: job.id, author: 'user', kind: 'interjection', body: '1' }, 1);
    const second = store.comments.insert({ taskId, jobId: job.id, author: 'user', kind: 'interjection', body: '2' }, 2);
    store.comments.insert({ taskId, jobId: job.id, author: 'user', kind: 'comment', body: 'not one' }, 3);
    store.comments.insert({ taskId, jobId: other.id, author: 'user', kind: 'interjection', body: 'other job' }, 4);
    expect(store.comments.undeliveredInterjections(job.id).map((c) => c.id)).toEqual([first.id, second.id]);

    expect(store.comments.markDelivered(first.id)).toBe(true);
    expect(store.comments.markDelivered(first.id)).toBe(false);
    expect(store.comments.markDelivered('cmt_missing')).toBe(false);
    expect(store.comments.undeliveredInterjections(job.id).map((c) => c.id)).toEqual([second.id]);
    expect(store.comments.undeliveredInterjections(other.id)).toHaveLength(1);
  });
});

import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import type { MaestroEvent, NewEvent } from '../../src-shared/events';
import { insertTask, rowCounts, tempStore } from '../../test-support/db';

const commentEvent = (taskId: string, body: string): NewEvent => ({
  type: 'comment.created',
  taskId,
  jobId: null,
  comment: { id: `cmt_${body}`, taskId, jobId: null, author: 'user', kind: 'comment', body, createdAt: '' },
});

describe('Store.transact and publish', () => {
  it('events published inside a transaction reach subscribers only after the commit, in order', () => {
    const store = tempStore();
    const taskId = insertTask(store);
    const seen: { event: MaestroEvent; committedRows: number }[] = [];
    // A second connection sees only committed data: the listener proves the commit happened before it was called.
    const reader = new Database(store.db.name, { readonly: true });
    store.subscribe((event) => {
      const n = (reader.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
      seen.push({ event, committedRows: n });
    });
    const result = store.transact(() => {
      store.publish(commentEvent(taskId, 'one'));
      store.publish(commentEvent(taskId, 'two'));
      expect(seen).toEqual([]);
      return 42;
    });
    reader.close();
    expect(result).toBe(42);
    expect(seen.map((s) => (s.event.type === 'comment.created' ? s.event.comment.body : ''))).toEqual(['one', 'two']);
    expect(seen.every((s) => s.committedRows === 2)).toBe(true);
    expect(seen[1]?.event.seq).toBeGreaterThan(seen[0]?.event.seq as number);
  });

  it('a rolled back transaction publishes nothing and leaves no event row', () => {
    const store = tempStore();
    const taskId = insertTask(store);
    const listener = vi.fn();
    store.subscribe(listener);
    const before = rowCounts(store);
    expect(() =>
      store.transact(() => {
        store.publish(commentEvent(taskId, 'lost'));
        store.comments.insert({ taskId, jobId: null, author: 'user', kind: 'comment', body: 'lost' });
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(listener).not.toHaveBeenCalled();
    expect(rowCounts(store)).toEqual(before);
    // The store is usable afterwards and publishes again.
    store.transact(() => store.publish(commentEvent(taskId, 'kept')));
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('a nested transact joins the outer one: its events wait for the outer commit, and an outer rollback drops them', () => {
    const store = tempStore();
    const taskId = insertTask(store);
    const listener = vi.fn();
    store.subscribe(listener);
    store.transact(() => {
      store.transact(() => store.publish(commentEvent(taskId, 'inner')));
      expect(listener).not.toHaveBeenCalled();
    });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(() =>
      store.transact(() => {
        store.transact(() => store.publish(commentEvent(taskId, 'inner2')));
        throw new Error('outer fails');
      }),
    ).toThrow('outer fails');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.events.since(0).map((e) => (e.type === 'comment.created' ? e.comment.body : ''))).toEqual(['inner']);
  });

  it('publish outside a transaction dispatches at once; unsubscribe disposes; a throwing listener does not stop others', () => {
    const store = tempStore();
    const taskId = insertTask(store);
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const bad = vi.fn(() => {
      throw new Error('listener bug');
    });
    const good = vi.fn();
    store.subscribe(bad);
    const dispose = store.subscribe(good);
    const stored = store.publish(commentEvent(taskId, 'now'));
    expect(good).toHaveBeenCalledWith(stored);
    expect(error).toHaveBeenCalled();
    dispose();
    store.publish(commentEvent(taskId, 'later'));
    expect(good).toHaveBeenCalledTimes(1);
    expect(bad).toHaveBeenCalledTimes(2);
    error.mockRestore();
  });

  it('transact takes the write lock up front (IMMEDIATE): a second connection cannot write meanwhile', () => {
    const store = tempStore();
    const other = new Database(store.db.name);
    other.pragma('busy_timeout = 0');
    store.transact(() => {
      expect(() => other.exec('BEGIN IMMEDIATE')).toThrow(/locked|busy/i);
    });
    other.exec('BEGIN IMMEDIATE');
    other.exec('ROLLBACK');
    other.close();
  });
});

import { describe, expect, it } from 'vitest';
import {
  forceStatus,
  insertJob,
  insertTask,
  storeDialects,
  tempStore,
  useStoreDialect,
} from '../../../test-support/db';

describe.each(storeDialects())('tasks repository (%s)', (dialect) => {
  useStoreDialect(dialect);
  it('insert → get maps every column; status is null until the task has a job', () => {
    const store = tempStore();
    const parent = insertTask(store);
    store.tasks.insert({
      id: 'task_x',
      title: 'Title',
      instruction: 'Instruction\nsecond line',
      pieceId: 'default',
      workspacePath: '/work/ws',
      workspaceKind: 'ephemeral',
      profile: 'env',
      parentTaskId: parent,
      createdAt: Date.UTC(2031, 5, 6),
    });
    expect(store.tasks.get('task_x')).toEqual({
      id: 'task_x',
      title: 'Title',
      instruction: 'Instruction\nsecond line',
      pieceId: 'default',
      workspacePath: '/work/ws',
      profile: 'env',
      parentTaskId: parent,
      createdAt: '2031-06-06T00:00:00.000Z',
      archivedAt: null,
      status: null,
      forkedFrom: null,
    });
    expect(store.tasks.workspaceKind('task_x')).toBe('ephemeral');
    expect(store.tasks.workspaceKind(parent)).toBe('persistent');
    expect(store.tasks.get('task_missing')).toBeUndefined();
    expect(store.tasks.workspaceKind('task_missing')).toBeUndefined();
  });

  it('P1.24 Task.status is the latest job’s status; list is newest first', () => {
    const store = tempStore();
    const older = insertTask(store, 1000);
    const newer = insertTask(store, 2000);
    const sameMs = insertTask(store, 2000);
    expect(store.tasks.list().map((t) => t.id)).toEqual([sameMs, newer, older]);

    const first = insertJob(store, older, { now: 10 });
    expect(store.tasks.get(older)?.status).toBe('queued');
    forceStatus(store, first.id, 'failed');
    expect(store.tasks.get(older)?.status).toBe('failed');
    insertJob(store, older, { now: 20 });
    expect(store.tasks.get(older)?.status).toBe('queued');
    expect(store.tasks.list().find((t) => t.id === older)?.status).toBe('queued');
    expect(store.tasks.list().find((t) => t.id === newer)?.status).toBeNull();
  });

  it('setPiece changes the task’s piece', () => {
    const store = tempStore();
    const id = insertTask(store);
    store.tasks.setPiece(id, 'review');
    expect(store.tasks.get(id)?.pieceId).toBe('review');
  });
});

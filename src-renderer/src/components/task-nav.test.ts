// The next-waiting-task shortcut's choice: after the selection in list order, wrapping, skipping tasks that do not wait.
import { describe, expect, it } from 'vitest';
import type { JobStatus, Task } from '../../../src-shared/entities';
import { nextWaitingTaskId } from './task-nav';

const task = (id: string, status: JobStatus | null): Task => ({
  id,
  title: id,
  instruction: id,
  pieceId: 'default',
  workspacePath: '/w',
  profile: null,
  parentTaskId: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  status,
});

describe('nextWaitingTaskId', () => {
  const tasks = [
    task('a', 'waiting_human'),
    task('b', 'running'),
    task('c', 'waiting_human'),
    task('d', null),
    task('e', 'waiting_human'),
  ];

  it('starts from the top when nothing (or an unknown task) is selected', () => {
    expect(nextWaitingTaskId(tasks, null)).toBe('a');
    expect(nextWaitingTaskId(tasks, 'gone')).toBe('a');
  });

  it('moves to the next waiting task below the selection, skipping the others, and wraps round', () => {
    expect(nextWaitingTaskId(tasks, 'a')).toBe('c');
    expect(nextWaitingTaskId(tasks, 'b')).toBe('c');
    expect(nextWaitingTaskId(tasks, 'c')).toBe('e');
    expect(nextWaitingTaskId(tasks, 'e')).toBe('a');
  });

  it('is null when no other task waits', () => {
    expect(nextWaitingTaskId([task('a', 'waiting_human'), task('b', 'succeeded')], 'a')).toBeNull();
    expect(nextWaitingTaskId([task('b', 'failed')], null)).toBeNull();
    expect(nextWaitingTaskId([], null)).toBeNull();
  });
});

// The task list's rows (subtasks under their parent, search, archived tasks, folded parents) and the next-waiting-task
// shortcut's choice: after the selection in list order, wrapping, skipping tasks that do not wait.
import { describe, expect, it } from 'vitest';
import type { JobStatus, Task } from '../../../src-shared/entities';
import { descendantCount, nextWaitingTaskId, type TaskListFilter, taskRows } from './task-nav';

const task = (id: string, status: JobStatus | null, more: Partial<Task> = {}): Task => ({
  id,
  title: id,
  instruction: id,
  pieceId: 'default',
  workspacePath: '/w',
  profile: null,
  parentTaskId: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  archivedAt: null,
  status,
  ...more,
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

describe('taskRows', () => {
  const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;
  // As the list holds them: newest first.
  const tasks = [
    task('report', 'running', { title: 'Quarterly report', instruction: 'Write the Q3 report', createdAt: at(9) }),
    task('charts', 'queued', { title: 'Draw charts', parentTaskId: 'report', createdAt: at(8) }),
    task('numbers', 'succeeded', {
      title: 'Gather numbers',
      instruction: 'Read the LEDGER',
      parentTaskId: 'report',
      createdAt: at(7),
    }),
    task('ledger-fix', 'queued', { title: 'Fix a cell', parentTaskId: 'numbers', createdAt: at(6) }),
    task('old', 'succeeded', { title: 'Old chore', archivedAt: at(30), createdAt: at(5) }),
    task('orphan', 'failed', { title: 'Orphan step', parentTaskId: 'old', createdAt: at(4) }),
    task('haiku', 'succeeded', { title: 'Haiku', instruction: 'Write a haiku about SQLite', createdAt: at(3) }),
  ];
  const all: TaskListFilter = { query: '', showArchived: false, collapsed: new Set() };
  const drawn = (filter: Partial<TaskListFilter>) =>
    taskRows(tasks, { ...all, ...filter }).map(
      (r) => `${'  '.repeat(r.depth)}${r.task.id}${r.childCount ? ` (${r.childCount})` : ''}`,
    );

  it('puts subtasks under their parent, oldest first and indented, and hides archived tasks', () => {
    expect(drawn({})).toEqual(['report (2)', '  numbers (1)', '    ledger-fix', '  charts', 'orphan', 'haiku']);
  });

  it('shows archived tasks on request, with their subtasks under them', () => {
    expect(drawn({ showArchived: true })).toEqual([
      'report (2)',
      '  numbers (1)',
      '    ledger-fix',
      '  charts',
      'old (1)',
      '  orphan',
      'haiku',
    ]);
  });

  it('folds a collapsed parent’s subtasks away, at any depth', () => {
    expect(drawn({ collapsed: new Set(['report']) })).toEqual(['report (2)', 'orphan', 'haiku']);
    expect(drawn({ collapsed: new Set(['numbers']) })).toEqual([
      'report (2)',
      '  numbers (1)',
      '  charts',
      'orphan',
      'haiku',
    ]);
  });

  it('searches titles and instructions ignoring case; a matching subtask keeps its parents, even folded', () => {
    expect(drawn({ query: 'sqlite' })).toEqual(['haiku']);
    expect(drawn({ query: '  ledger ' })).toEqual(['report (1)', '  numbers (1)', '    ledger-fix']);
    expect(drawn({ query: 'cell', collapsed: new Set(['report']) })).toEqual([
      'report (1)',
      '  numbers (1)',
      '    ledger-fix',
    ]);
    expect(drawn({ query: 'report' })).toEqual(['report']);
    expect(drawn({ query: 'chore' })).toEqual([]);
    expect(drawn({ query: 'chore', showArchived: true })).toEqual(['old']);
    expect(drawn({ query: 'nothing like it' })).toEqual([]);
  });

  it('counts the subtasks a delete takes with it, at any depth', () => {
    expect(descendantCount(tasks, 'report')).toBe(3);
    expect(descendantCount(tasks, 'numbers')).toBe(1);
    expect(descendantCount(tasks, 'haiku')).toBe(0);
  });
});

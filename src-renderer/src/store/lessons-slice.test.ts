// P2.08 in the window's store: a Reflection job is never the task's latest job (its status stays the failed run's),
// and a lesson as an event brings it lands on its task's cards and in Settings' list, replaced in place when decided.
import { describe, expect, it } from 'vitest';
import type { Lesson } from '../../../src-shared/lessons';
import { createHttpClient } from '../api/client';
import { jobFixture, taskFixture } from '../test-fixtures';
import { selectDetail } from './entity-selectors';
import { createAppStore } from './store';

const offline = () =>
  createAppStore(createHttpClient({ baseUrl: 'http://127.0.0.1:1', token: 't', fetch: async () => Response.json({}) }));

const lesson = (patch: Partial<Lesson> & Pick<Lesson, 'id'>): Lesson => ({
  text: 'Run the tests first.',
  evidence: '',
  status: 'proposed',
  scope: 'workspace',
  workspacePath: '/w',
  pieceId: 'default',
  sourceTaskId: 'a',
  sourceJobId: 'r1',
  createdAt: '2026-01-01T00:00:00.000Z',
  decidedAt: null,
  lastUsedAt: null,
  useCount: 0,
  stale: false,
  replaces: null,
  contradictedBy: null,
  ...patch,
});

describe('P2.08 lessons in the store', () => {
  it('P2.08 a Reflection job is not folded as the task’s latest job', () => {
    const store = offline();
    const task = taskFixture({ id: 'a' });
    const { fold } = store.getState();
    fold({ kind: 'task', task }, { kind: 'chat.open', taskId: 'a' });
    fold({ kind: 'chat.latest', taskId: 'a', page: { task, jobs: [], comments: [], steps: [], olderCount: 0 } });
    fold({ kind: 'job', job: jobFixture({ id: 'j1', taskId: 'a', status: 'failed' }) });
    fold({ kind: 'job', job: jobFixture({ id: 'r1', taskId: 'a', status: 'running', kind: 'reflection' }) });
    expect(selectDetail(store.getState())?.jobs.map((j) => [j.id, j.status])).toEqual([['j1', 'failed']]);
  });

  it('P2.08 a lesson lands on its task’s cards and in the list, and a decision replaces it in place', () => {
    const store = offline();
    store.setState({
      selectedTaskId: 'a',
      taskLessons: { taskId: 'a', list: [] },
      allLessons: { load: 'ready', list: [lesson({ id: 'old', sourceTaskId: 'b', status: 'approved' })], error: null },
    });
    store.getState().foldLesson(lesson({ id: 'l1' }));
    store.getState().foldLesson(lesson({ id: 'other', sourceTaskId: 'b' }));
    expect(store.getState().taskLessons?.list.map((l) => l.id)).toEqual(['l1']);
    expect(store.getState().allLessons.list.map((l) => l.id)).toEqual(['other', 'l1', 'old']);
    store.getState().foldLesson(lesson({ id: 'l1', status: 'approved', scope: 'everywhere' }));
    expect(store.getState().taskLessons?.list).toMatchObject([{ id: 'l1', status: 'approved', scope: 'everywhere' }]);
    expect(store.getState().allLessons.list.map((l) => [l.id, l.status])).toEqual([
      ['other', 'proposed'],
      ['l1', 'approved'],
      ['old', 'approved'],
    ]);
  });
});

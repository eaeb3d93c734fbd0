// The notification center's entries come from the tasks and their latest jobs: what needs the user, newest first,
// gone once resolved or dismissed (P7.20).
import { describe, expect, it } from 'vitest';
import type { Job, Task } from '../../../src-shared/entities';
import { jobFixture, taskFixture } from '../test-fixtures';
import { actionItems } from './action-items';

const at = (s: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, s)).toISOString();
const task = (id: string, status: Task['status']): Task =>
  taskFixture({ id, title: `Task ${id}`, createdAt: at(0), status });
const job = (taskId: string, s: number, status: Job['status'], waitReason: Job['waitReason'] = null): Job =>
  jobFixture({
    id: `j-${taskId}`,
    taskId,
    createdAt: at(s),
    updatedAt: at(s),
    status,
    waitReason,
    error: status === 'failed' ? 'boom' : null,
  });

describe('actionItems', () => {
  it('P7.20 lists decisions, questions, sign-ins, browser steps and failures, newest first', () => {
    const tasks = [
      task('a', 'waiting_human'),
      task('b', 'waiting_human'),
      task('c', 'failed'),
      task('d', 'running'),
      task('e', 'waiting_human'),
      task('f', 'waiting_human'),
    ];
    const jobs = {
      a: job('a', 1, 'waiting_human', 'tool_request'),
      b: job('b', 3, 'waiting_human', 'ask'),
      c: job('c', 2, 'failed'),
      d: job('d', 4, 'running'),
      e: job('e', 5, 'waiting_human', 'browser'),
      f: job('f', 6, 'waiting_human', 'mcp_auth_required'),
    };
    const items = actionItems(tasks, jobs, []);
    expect(items.map((i) => [i.taskId, i.reason])).toEqual([
      ['f', 'mcp_auth_required'],
      ['e', 'browser'],
      ['b', 'ask'],
      ['c', 'failed'],
      ['a', 'tool_request'],
    ]);
    expect(items.find((i) => i.reason === 'failed')?.detail).toBe('boom');
  });

  it('is generic while the job is unknown or stale, and drops dismissed failures', () => {
    const stale = { a: job('a', 1, 'running') };
    expect(actionItems([task('a', 'waiting_human')], stale, [])).toMatchObject([{ reason: 'waiting', jobId: null }]);
    expect(actionItems([task('c', 'failed')], { c: job('c', 2, 'failed') }, ['j-c'])).toEqual([]);
    expect(actionItems([task('c', 'succeeded')], { c: job('c', 2, 'succeeded') }, [])).toEqual([]);
  });

  it('P7.20 a running task with an MCP server’s question open asks the person; it goes once the question closes', () => {
    const tasks = [task('a', 'running'), task('b', 'running')];
    const jobs = { a: job('a', 1, 'running'), b: job('b', 2, 'running') };
    expect(actionItems(tasks, jobs, [], { a: ['p1'] })).toMatchObject([{ taskId: 'a', reason: 'ask', jobId: 'j-a' }]);
    expect(actionItems(tasks, jobs, [], { a: [] })).toEqual([]);
    // A job that ended with its question (no close event came) no longer asks.
    expect(actionItems([task('a', 'succeeded')], { a: job('a', 3, 'succeeded') }, [], { a: ['p1'] })).toEqual([]);
  });
});

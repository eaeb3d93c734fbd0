// When a failed job's row offers Retry: only while that job is its task's latest and stopped — once a retry started
// another job (or the job runs again), the old row is history and offers nothing that would start yet another.
import { describe, expect, it } from 'vitest';
import { jobFixture } from '../test-fixtures';
import { isStopped } from './useRetryTask';

const failed = jobFixture({ id: 'j1', taskId: 't', status: 'failed' });

describe('isStopped', () => {
  it('the latest job, failed or waiting to retry', () => {
    expect(isStopped(failed, failed)).toBe(true);
    const waiting = jobFixture({ id: 'j1', taskId: 't', status: 'retry' });
    expect(isStopped(waiting, waiting)).toBe(true);
  });

  it('not once another job is the latest, nor while it runs or after it succeeded, nor unknown', () => {
    expect(isStopped(failed, jobFixture({ id: 'j2', taskId: 't', status: 'queued' }))).toBe(false);
    const running = jobFixture({ id: 'j1', taskId: 't', status: 'running' });
    expect(isStopped(running, running)).toBe(false);
    expect(isStopped(failed, undefined)).toBe(false);
    expect(isStopped(undefined, failed)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { JOB_STATUSES, type JobStatus } from '../../src-shared/entities';
import { forceStatus, insertJob, insertTask, rawJob, rowCounts, tempStore } from '../../test-support/db';
import { assertTransition, canTransition, IllegalTransitionError, JOB_TRANSITIONS } from './job-state';
import type { JobPatch } from './repos/jobs';

/** The columns a transition into `to` needs. */
const patchFor = (to: JobStatus): JobPatch =>
  to === 'waiting_human'
    ? { waitReason: 'tool_request', resumeMovement: 'work' }
    : to === 'retry'
      ? { nextRetryAt: Date.now() + 1000, error: 'boom' }
      : {};

const EXPECTED: Record<JobStatus, JobStatus[]> = {
  queued: ['running', 'cancelled'],
  running: ['queued', 'waiting_human', 'waiting_subtasks', 'retry', 'succeeded', 'failed', 'cancelled'],
  waiting_human: ['queued', 'succeeded', 'cancelled'],
  waiting_subtasks: ['queued', 'cancelled'],
  retry: ['running', 'cancelled'],
  succeeded: [],
  failed: [],
  cancelled: [],
};

describe('job state machine (A#4)', () => {
  it('the table covers exactly the 8 statuses, terminal ones have no way out, and nothing loops to itself', () => {
    expect(Object.keys(JOB_TRANSITIONS).sort()).toEqual([...JOB_STATUSES].sort());
    for (const from of JOB_STATUSES) {
      expect([...JOB_TRANSITIONS[from]].sort(), from).toEqual([...EXPECTED[from]].sort());
      expect(canTransition(from, from)).toBe(false);
    }
    expect(() => assertTransition('succeeded', 'queued')).toThrow(IllegalTransitionError);
    expect(() => assertTransition('queued', 'running')).not.toThrow();
  });

  describe.each(JOB_STATUSES)('from %s', (from) => {
    it.each(JOB_STATUSES)(
      `P2.40 ${from} → %s through jobs.transition: allowed ones apply, others throw and change nothing`,
      (to) => {
        const store = tempStore();
        const taskId = insertTask(store);
        const job = forceStatus(store, insertJob(store, taskId).id, from);
        const before = rawJob(store, job.id);
        const counts = rowCounts(store);
        if (canTransition(from, to)) {
          const changed = store.jobs.transition(job.id, from, to, patchFor(to));
          expect(changed?.status).toBe(to);
          expect(store.jobs.get(job.id)?.status).toBe(to);
          expect(store.jobs.get(job.id)?.waitReason).toBe(to === 'waiting_human' ? 'tool_request' : null);
          expect(store.jobs.get(job.id)?.nextRetryAt === null).toBe(to !== 'retry');
        } else {
          let error: unknown;
          try {
            store.jobs.transition(job.id, from, to, patchFor(to));
          } catch (e) {
            error = e;
          }
          expect(error).toBeInstanceOf(IllegalTransitionError);
          expect(error).toMatchObject({ from, to, name: 'IllegalTransitionError' });
          expect(rawJob(store, job.id)).toEqual(before);
          expect(rowCounts(store)).toEqual(counts);
        }
      },
    );
  });

  it('P2.40 entering waiting_human without a waitReason or retry without nextRetryAt throws a clear error; DB unchanged', () => {
    const store = tempStore();
    const job = forceStatus(store, insertJob(store, insertTask(store)).id, 'running');
    const before = rawJob(store, job.id);
    expect(() => store.jobs.transition(job.id, 'running', 'waiting_human')).toThrow(/needs a waitReason/);
    expect(() => store.jobs.transition(job.id, 'running', 'retry', { error: 'x' })).toThrow(/needs a nextRetryAt/);
    expect(rawJob(store, job.id)).toEqual(before);
  });
});

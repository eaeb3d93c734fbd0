import { describe, expect, it } from 'vitest';
import { isTerminal, JOB_STATUSES, type JobStatus } from '../../src-shared/entities';
import { forceStatus, insertJob, insertTask, rawJob, rowCounts, tempStore } from '../../test-support/db';
import type { JobPatch } from '../db/repos/jobs';
import { assertTransition, canTransition, IllegalTransitionError, JOB_TRANSITIONS } from './job-state';
import { changeJob } from './job-writes';

/** The columns a transition into `to` needs. */
const patchFor = (to: JobStatus): JobPatch =>
  to === 'waiting_human'
    ? { waitReason: 'tool_request', resumeMovement: 'work' }
    : to === 'retry'
      ? { nextRetryAt: Date.now() + 1000, error: 'boom' }
      : {};

/** The statuses reachable from `from` through the table. */
function reachable(from: JobStatus): Set<JobStatus> {
  const seen = new Set<JobStatus>();
  const visit = (s: JobStatus) => {
    for (const next of JOB_TRANSITIONS[s]) if (!seen.has(next)) seen.add(next) && visit(next);
  };
  visit(from);
  return seen;
}

describe('job state machine (A#4)', () => {
  it('terminal statuses have no way out; every other status can be cancelled, reaches an end, and never loops to itself', () => {
    expect(Object.keys(JOB_TRANSITIONS).sort()).toEqual([...JOB_STATUSES].sort());
    for (const from of JOB_STATUSES) {
      expect(canTransition(from, from), from).toBe(false);
      if (isTerminal(from)) expect(JOB_TRANSITIONS[from], from).toEqual([]);
      else {
        expect(canTransition(from, 'cancelled'), from).toBe(true);
        expect([...reachable(from)].some(isTerminal), from).toBe(true);
      }
    }
  });

  it('every status is reachable from queued, and a job never goes back to queued once it ended', () => {
    expect([...reachable('queued')].sort()).toEqual([...JOB_STATUSES].sort());
    expect(() => assertTransition('succeeded', 'queued')).toThrow(IllegalTransitionError);
    expect(() => assertTransition('queued', 'running')).not.toThrow();
  });

  describe.each(JOB_STATUSES)('from %s', (from) => {
    it.each(JOB_STATUSES)(
      `P2.40 ${from} → %s through changeJob: allowed ones apply and are published, others throw and change nothing`,
      (to) => {
        const store = tempStore();
        const taskId = insertTask(store);
        const job = forceStatus(store, insertJob(store, taskId).id, from);
        const before = rawJob(store, job.id);
        const counts = rowCounts(store);
        if (canTransition(from, to)) {
          const changed = changeJob(store, job, to, patchFor(to));
          expect(changed?.status).toBe(to);
          expect(store.events.since(0).at(-1)).toMatchObject({ type: 'job.changed', jobId: job.id });
          expect(store.jobs.get(job.id)?.status).toBe(to);
          expect(store.jobs.get(job.id)?.waitReason).toBe(to === 'waiting_human' ? 'tool_request' : null);
          expect(store.jobs.get(job.id)?.nextRetryAt === null).toBe(to !== 'retry');
        } else {
          let error: unknown;
          try {
            changeJob(store, job, to, patchFor(to));
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
    expect(() => changeJob(store, job, 'waiting_human')).toThrow(/needs a waitReason/);
    expect(() => changeJob(store, job, 'retry', { error: 'x' })).toThrow(/needs a nextRetryAt/);
    expect(rawJob(store, job.id)).toEqual(before);
  });
});

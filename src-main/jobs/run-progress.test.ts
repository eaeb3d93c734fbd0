// What a run records as it goes, on real SQLite files: its Invoke consumed, its movement, its interjections delivered
// once; a job no longer running (cancelled under the run) keeps its row as it is.
import { describe, expect, it } from 'vitest';
import { jobIn, snapshot } from '../../test-support/job-states';
import type { JobRecord } from '../db/repos/jobs';
import { cancelJobTree } from './lifecycle';
import { interject } from './person-comments';
import { consumeInvoke, markDelivered, recordMovement } from './run-progress';

describe('run progress (issue 24)', () => {
  it('a running job records its Invoke consumed and the movement it is in', () => {
    const { store, job } = jobIn('running');
    expect(job.pendingInvoke).toBe('UserSend');
    consumeInvoke(store, job.id);
    recordMovement(store, job.id, 'review');
    expect(store.jobs.get(job.id)).toMatchObject({ pendingInvoke: null, resumeMovement: 'review' });
  });

  it('a job cancelled under the run keeps its movement: the run learns of the cancel from its abort signal', () => {
    const { store, job } = jobIn('running');
    cancelJobTree(store, store.jobs.get(job.id) as JobRecord);
    const before = snapshot(store);
    recordMovement(store, job.id, 'review');
    expect(snapshot(store)).toEqual(before);
  });

  it('P1.15 an interjection is delivered once: the second mark loses', () => {
    const { store, job } = jobIn('running');
    const { comment } = interject(store, job.id, 'also check the tests');
    expect(markDelivered(store, comment.id)).toBe(true);
    expect(markDelivered(store, comment.id)).toBe(false);
    expect(store.comments.undeliveredInterjections(job.id)).toEqual([]);
  });
});

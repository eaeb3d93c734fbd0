// The worker's hold on a job, on real SQLite files: a claim counts an attempt and writes nothing when there is nothing
// to claim; a stale job is sent back only when it is still running under a worker that stopped beating; a cancel is
// idempotent and denies what the job left pending.
import { describe, expect, it } from 'vitest';
import { jobIn, RUN, snapshot } from '../../test-support/job-states';
import type { JobRecord } from '../db/repos/jobs';
import { handlePieceResult } from './apply-result';
import { claim, heartbeat, recover } from './claim';
import { cancelJobTree } from './lifecycle';

describe('claim, heartbeat, recover, cancel (issue 24)', () => {
  it('P2.01 P2.07 claim takes the queued job (attempt +1, event) and, with nothing claimable, writes nothing', () => {
    const { store, job } = jobIn('queued');
    expect(claim(store, { workerId: 'w9', profiles: null })).toMatchObject({
      id: job.id,
      status: 'running',
      attempt: 1,
    });
    expect(store.events.since(0).map((e) => e.type)).toContain('job.changed');
    const before = snapshot(store);
    expect(claim(store, { workerId: 'w9', profiles: null })).toBeUndefined();
    expect(snapshot(store)).toEqual(before);
  });

  it('the heartbeat holds only for the worker that holds the job', () => {
    const { store, job } = jobIn('running');
    expect(heartbeat(store, job.id, RUN.workerId)).toBe(true);
    expect(heartbeat(store, job.id, 'w2')).toBe(false);
    cancelJobTree(store, store.jobs.get(job.id) as JobRecord);
    expect(heartbeat(store, job.id, RUN.workerId)).toBe(false);
  });

  it('P2.35 recover sends a stale job of another worker back to retry, and leaves a fresh one, its own, or an ended one', () => {
    const { store, job } = jobIn('running');
    const beat = Date.parse(store.jobs.get(job.id)?.heartbeatAt as string);
    const retry = { maxAttempts: 3, baseDelayMs: 1_000, maxDelayMs: 60_000 };
    const sendBack = (j: JobRecord & { workerId: string }) =>
      handlePieceResult(
        store,
        j,
        { kind: 'error', message: 'its worker stopped', retryable: true },
        {
          workerId: j.workerId,
          retry,
        },
      );
    const before = snapshot(store);
    expect(recover(store, job.id, { cutoff: beat, self: 'w2' }, sendBack)).toBeUndefined();
    expect(recover(store, job.id, { cutoff: beat + 1, self: RUN.workerId }, sendBack)).toBeUndefined();
    expect(snapshot(store)).toEqual(before);
    const back = recover(store, job.id, { cutoff: beat + 1, self: 'w2' }, sendBack);
    expect(back).toMatchObject({ status: 'retry', workerId: null, attempt: 1, error: 'its worker stopped' });
    const after = snapshot(store);
    expect(recover(store, job.id, { cutoff: beat + 1, self: 'w2' }, sendBack)).toBeUndefined();
    expect(snapshot(store)).toEqual(after);
  });

  it('P1.22 a cancel denies the pending requests; P1.23 a second cancel answers undefined and writes nothing', () => {
    const { store, job } = jobIn('waiting_human:tool_request');
    const [request] = store.toolRequests.listForJob(job.id);
    expect(cancelJobTree(store, job)?.status).toBe('cancelled');
    expect(store.toolRequests.get(request?.id as string)?.status).toBe('denied');
    const cancelled = store.jobs.get(job.id) as JobRecord;
    const before = snapshot(store);
    expect(cancelJobTree(store, cancelled)).toBeUndefined();
    expect(snapshot(store)).toEqual(before);
  });
});

// Abort reasons as types: a shutdown is known by its kind, never by its words — a cancel that says what a shutdown
// says stays a cancel — and a deadline ends the movement as the job's deadline_exceeded error.
import { describe, expect, it } from 'vitest';
import { JobAborts } from '../jobs/aborts';
import { abortOf, JobAbort, stoppedBy } from './abort';

describe('typed abort reasons', () => {
  it('the kind given travels with the signal; the words do not make the kind', () => {
    const aborts = new JobAborts();
    const shutdown = aborts.register('j1');
    aborts.abort('j1', 'the host is shutting down', 'shutdown');
    expect(abortOf(shutdown)).toMatchObject({ kind: 'shutdown', message: 'the host is shutting down' });

    // A cancel worded like a shutdown is a cancel: the Worker would persist it as cancelled, not back to retry.
    const cancel = aborts.register('j2');
    aborts.abort('j2', 'the host is shutting down');
    expect(abortOf(cancel).kind).toBe('cancelled');
  });

  it('a reason that is no JobAbort counts as a cancel, in its words', () => {
    const plain = new AbortController();
    plain.abort(new Error('stop now'));
    expect(abortOf(plain.signal)).toMatchObject({ kind: 'cancelled', message: 'stop now' });
    const bare = new AbortController();
    bare.abort('just stop');
    expect(abortOf(bare.signal)).toMatchObject({ kind: 'cancelled', message: 'just stop' });
  });

  it('P4.09 a deadline ends the movement as deadline_exceeded; the other kinds as cancelled', () => {
    expect(stoppedBy(new JobAbort('deadline', 'the job ran past its deadline'))).toEqual({
      kind: 'error',
      message: 'deadline_exceeded: the job ran past its deadline',
      retryable: false,
      code: 'deadline_exceeded',
    });
    for (const kind of ['cancelled', 'shutdown', 'lease_lost'] as const) {
      expect(stoppedBy(new JobAbort(kind, 'why'))).toEqual({ kind: 'cancelled', reason: 'why' });
    }
  });
});

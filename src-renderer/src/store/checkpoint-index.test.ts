// Which checkpoint's files show under which tool call (the one whose run changed them, else the one it preceded),
// which Send each rewinds to, which job's result shows its commit, and which Invokes a conversation rewind folded.
import { describe, expect, it } from 'vitest';
import type { Checkpoint, TaskRewind } from '../../../src-shared/checkpoints';
import { changedOutside, indexCheckpoints, rewoundBy } from './checkpoint-index';

const cp = (id: string, patch: Partial<Checkpoint>): Checkpoint => ({
  id,
  taskId: 't',
  jobId: 'j1',
  send: 1,
  invokeSeq: 1,
  kind: 'send',
  createdAt: '2026-01-01T00:00:00.000Z',
  files: [],
  skipped: [],
  commit: null,
  callId: null,
  changedBy: null,
  ...patch,
});

const rewind = (patch: Partial<TaskRewind>): TaskRewind => ({
  id: 'rw',
  send: 2,
  fromSeq: 10,
  untilSeq: 20,
  createdAt: '2026-01-01T00:00:00.000Z',
  undone: false,
  ...patch,
});

describe('indexCheckpoints', () => {
  it('puts the files a call changed under that call, and a Send checkpoint at its Invoke for the rewind', () => {
    // As the host records a Send: call_1 wrote (seen before call_2), call_2 wrote (seen at the run's end).
    const send1 = cp('a', { kind: 'send', invokeSeq: 1 });
    const before2 = cp('b', { kind: 'step', callId: 'call_2', changedBy: 'call_1' });
    const end = cp('c', { kind: 'step', callId: null, changedBy: 'call_2' });
    const send2 = cp('d', { kind: 'send', send: 2, invokeSeq: 9 });
    const index = indexCheckpoints([send1, before2, end, send2], []);
    expect([...index.atSend]).toEqual([
      [1, send1],
      [9, send2],
    ]);
    expect([...index.underCall]).toEqual([
      ['call_1', before2],
      ['call_2', end],
    ]);
  });

  it('puts what changed outside the agent before a call under that call, unless the call itself changed files', () => {
    const outside = cp('a', { kind: 'step', callId: 'call_5', changedBy: null });
    const byFive = cp('b', { kind: 'step', callId: null, changedBy: 'call_5' });
    const onlyOutside = cp('c', { kind: 'step', callId: 'call_7', changedBy: null });
    const index = indexCheckpoints([outside, byFive, onlyOutside], []);
    expect(index.underCall.get('call_5')).toBe(byFive);
    expect(index.underCall.get('call_7')).toBe(onlyOutside);
    expect(changedOutside(onlyOutside)).toBe(true);
    expect(changedOutside(byFive)).toBe(false);
  });

  it('keeps the first checkpoint when two claim one Send or one call, and shows no rewind checkpoint', () => {
    const first = cp('a', { invokeSeq: 4 });
    const again = cp('b', { invokeSeq: 4 });
    const stepA = cp('c', { kind: 'step', changedBy: 'x' });
    const stepB = cp('d', { kind: 'step', changedBy: 'x' });
    const beforeRewind = cp('e', { kind: 'rewind', invokeSeq: 7 });
    const loose = cp('f', { kind: 'step', callId: null });
    const index = indexCheckpoints([first, again, stepA, stepB, beforeRewind, loose], []);
    expect(index.atSend.get(4)).toBe(first);
    expect(index.atSend.has(7)).toBe(false);
    expect(index.underCall.get('x')).toBe(stepA);
    expect(index.underCall.size).toBe(1);
  });

  it('gives each job its workspace commit, whichever checkpoint of it carries the hash', () => {
    const index = indexCheckpoints(
      [
        cp('a', { jobId: 'j1' }),
        cp('b', { jobId: 'j1', kind: 'step', callId: 'c', commit: 'abc1234' }),
        cp('c', { jobId: 'j2' }),
      ],
      [],
    );
    expect(index.commits.get('j1')).toBe('abc1234');
    expect(index.commits.has('j2')).toBe(false);
  });
});

describe('rewoundBy', () => {
  it('folds the Invokes in [fromSeq, untilSeq) of a rewind in force, not the ones around it', () => {
    const index = indexCheckpoints([], [rewind({ fromSeq: 10, untilSeq: 20 })]);
    expect(rewoundBy(index, 9)).toBeNull();
    expect(rewoundBy(index, 10)?.id).toBe('rw');
    expect(rewoundBy(index, 19)?.id).toBe('rw');
    expect(rewoundBy(index, 20)).toBeNull();
  });

  it('folds nothing for an undone rewind', () => {
    const index = indexCheckpoints([], [rewind({ undone: true })]);
    expect(index.rewinds).toEqual([]);
    expect(rewoundBy(index, 12)).toBeNull();
  });
});

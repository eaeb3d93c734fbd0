// Which checkpoint shows under which Send and tool call, which job's result shows its commit, and which Invokes a
// conversation rewind folded.
import { describe, expect, it } from 'vitest';
import type { Checkpoint, TaskRewind } from '../../../src-shared/checkpoints';
import { indexCheckpoints, rewoundBy } from './checkpoint-index';

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
  it('puts a send checkpoint under the Invoke of its seq and a step checkpoint under the call it preceded', () => {
    const send1 = cp('a', { kind: 'send', invokeSeq: 1 });
    const step = cp('b', { kind: 'step', invokeSeq: 1, callId: 'call_1' });
    const send2 = cp('c', { kind: 'send', send: 2, invokeSeq: 9 });
    const index = indexCheckpoints([send1, step, send2], []);
    expect([...index.atSend]).toEqual([
      [1, send1],
      [9, send2],
    ]);
    expect([...index.beforeCall]).toEqual([['call_1', step]]);
  });

  it('keeps the first checkpoint when two claim one Send or one call, and shows no rewind checkpoint', () => {
    const first = cp('a', { invokeSeq: 4 });
    const again = cp('b', { invokeSeq: 4 });
    const stepA = cp('c', { kind: 'step', callId: 'x' });
    const stepB = cp('d', { kind: 'step', callId: 'x' });
    const beforeRewind = cp('e', { kind: 'rewind', invokeSeq: 7 });
    const loose = cp('f', { kind: 'step', callId: null });
    const index = indexCheckpoints([first, again, stepA, stepB, beforeRewind, loose], []);
    expect(index.atSend.get(4)).toBe(first);
    expect(index.atSend.has(7)).toBe(false);
    expect(index.beforeCall.get('x')).toBe(stepA);
    expect(index.beforeCall.size).toBe(1);
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

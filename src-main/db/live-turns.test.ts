// LiveTurns: what a window that joins mid-stream is sent first — each running job's movement and the events of its
// turn being generated, deltas merged; a sub-agent's turn stays inside its caller's; a job that stops drops them.
import { describe, expect, it } from 'vitest';
import type { Job } from '../../src-shared/entities';
import type { MaestroEvent, NewEvent } from '../../src-shared/events';
import { LiveTurns } from './live-turns';

const ev = (e: NewEvent, seq = 0): MaestroEvent => ({ ...e, seq, ts: '2026-01-01T00:00:00.000Z' }) as MaestroEvent;
const ids = { taskId: 't1', jobId: 'j1' };
const delta = (text: string, toolCalls: { index: number; name?: string; arguments: string }[] = []) =>
  ev({ type: 'stream.delta', ...ids, text, reasoning: '', toolCalls });
const turnStart = (turnCount: number, depth?: number) =>
  ev({ type: 'TurnStart', ...ids, turnCount, ...(depth ? { depth } : {}) });

describe('LiveTurns', () => {
  it('P7.17 keeps the movement and the current turn, with the deltas in a row merged into one', () => {
    const live = new LiveTurns();
    live.fold(ev({ type: 'movement.entered', ...ids, movement: 'plan' }, 5));
    live.fold(turnStart(1));
    live.fold(delta('Hel', [{ index: 0, name: 'list_dir', arguments: '{"pa' }]));
    live.fold(delta('lo', [{ index: 0, arguments: 'th":"."}' }]));
    const replay = live.replay();
    expect(replay.map((e) => e.type)).toEqual(['movement.entered', 'TurnStart', 'stream.delta']);
    expect(replay[2]).toMatchObject({
      text: 'Hello',
      toolCalls: [{ index: 0, name: 'list_dir', arguments: '{"path":"."}' }],
    });
  });

  it('a new turn of the job replaces the last; a sub-agent’s turn is kept inside it', () => {
    const live = new LiveTurns();
    live.fold(turnStart(1));
    live.fold(delta('first'));
    live.fold(turnStart(2));
    live.fold(delta('second'));
    live.fold(turnStart(3, 1));
    live.fold(delta('inner'));
    expect(live.replay().map((e) => (e.type === 'stream.delta' ? e.text : e.type))).toEqual([
      'TurnStart',
      'second',
      'TurnStart',
      'inner',
    ]);
  });

  it('drops a job once it stops running, and filters by task', () => {
    const live = new LiveTurns();
    live.fold(turnStart(1));
    live.fold(ev({ type: 'TurnStart', taskId: 't2', jobId: 'j2', turnCount: 1 }));
    expect(live.replay('t2')).toHaveLength(1);
    expect(live.replay()).toHaveLength(2);
    live.fold(ev({ type: 'job.changed', ...ids, job: { id: 'j1', taskId: 't1', status: 'succeeded' } as Job }, 9));
    expect(live.replay().map((e) => e.taskId)).toEqual(['t2']);
  });

  it('ignores what comes before a turn starts, and events that are not part of one', () => {
    const live = new LiveTurns();
    live.fold(delta('orphan'));
    expect(live.replay()).toEqual([]);
    live.fold(turnStart(1));
    live.fold(ev({ type: 'task.changed', taskId: 't1', jobId: 'j1' } as unknown as NewEvent, 3));
    expect(live.replay().map((e) => e.type)).toEqual(['TurnStart']);
  });
});

import { describe, expect, it } from 'vitest';
import type { Comment } from '../../../src-shared/entities';
import { MaestroEvent, type NewEvent } from '../../../src-shared/events';
import { storeDialects, tempStore, useStoreDialect } from '../../../test-support/db';

const comment = (taskId: string, body: string): Comment => ({
  id: `cmt_${body}`,
  taskId,
  jobId: null,
  author: 'user',
  kind: 'comment',
  body,
  createdAt: new Date(0).toISOString(),
});
const event = (taskId: string, body: string, jobId: string | null = null): NewEvent => ({
  type: 'comment.created',
  taskId,
  jobId,
  comment: comment(taskId, body),
});

describe.each(storeDialects())('events repository (%s)', (dialect) => {
  useStoreDialect(dialect);
  it('append gives strictly increasing seqs; since() round-trips the payload; lastSeq follows', () => {
    const store = tempStore();
    expect(store.events.lastSeq()).toBe(0);
    expect(store.events.since(0)).toEqual([]);
    const a = store.events.append(event('t1', 'a', 'job_1'), Date.UTC(2030, 0, 1));
    const b = store.events.append(event('t2', 'b'));
    expect(b.seq).toBeGreaterThan(a.seq);
    expect(a).toEqual({ ...event('t1', 'a', 'job_1'), seq: a.seq, ts: '2030-01-01T00:00:00.000Z' });
    expect(store.events.lastSeq()).toBe(b.seq);
    const read = store.events.since(0);
    expect(read).toEqual([a, b]);
    for (const e of read) expect(MaestroEvent.parse(e)).toEqual(e);
    expect(store.events.since(a.seq)).toEqual([b]);
    expect(store.events.since(b.seq)).toEqual([]);
  });

  it('since() with a taskId returns only that task’s events after the seq; limit caps the page', () => {
    const store = tempStore();
    const seqs = ['a', 'b', 'c', 'd', 'e'].map((body, i) => store.events.append(event(i % 2 ? 't2' : 't1', body)).seq);
    expect(store.events.since(0, 't1').map((e) => e.seq)).toEqual([seqs[0], seqs[2], seqs[4]]);
    expect(store.events.since(seqs[0] as number, 't1').map((e) => e.seq)).toEqual([seqs[2], seqs[4]]);
    expect(store.events.since(0, 't2').map((e) => e.taskId)).toEqual(['t2', 't2']);
    expect(store.events.since(0, 'none')).toEqual([]);
    expect(store.events.since(0, undefined, 2).map((e) => e.seq)).toEqual(seqs.slice(0, 2));
    expect(store.events.since(0, 't1', 1).map((e) => e.seq)).toEqual([seqs[0]]);
  });
});

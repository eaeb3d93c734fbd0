// A stopped job in the feed (issue 23): what it streamed before the stop stays as its step, in its place, marked
// stopped, with the note of the stop after it — not the note above a movement marker and the text gone.
import { describe, expect, it } from 'vitest';
import { chatItems } from '../store/chat-items';
import { foldStreamEvent, foldStreamJob, type JobStream, type StreamEvent } from '../store/job-stream';
import { atSecond, commentFixture, jobFixture, stepFixture } from '../test-fixtures';
import { type FeedRow, itemRows } from './feed-rows';
import { streamedKeys, streamRows } from './stream-rows';

const note = (s: number, jobId = 'j1') =>
  commentFixture(`stop-${jobId}`, s, {
    jobId,
    author: 'system',
    kind: 'comment',
    body: 'Cancelled.',
    notice: { code: 'cancelled', subtasks: 0 },
  });
const shape = (rows: FeedRow[]) =>
  rows.map((r) =>
    r.kind === 'step' ? `step ${r.step.id}${r.stopped ? ' stopped' : ''}` : r.kind === 'comment' ? r.key : r.kind,
  );

describe('a stopped job in the feed', () => {
  it('the step recorded after the stop comes before the note of the stop, marked stopped; earlier steps are not', () => {
    const items = chatItems(
      [commentFixture('go', 0), note(5)],
      [stepFixture(1, 1, { text: 'Listed.' }), stepFixture(2, 6, { text: 'Thinking about' })],
    );
    expect(shape(itemRows(items, []))).toEqual(['go', 'movement', 'step step:1', 'step step:2 stopped', 'stop-j1']);
  });

  it('a job stopped while it waited (no step after the note), and another job’s steps, are left as they are', () => {
    const items = chatItems(
      [commentFixture('go', 0), note(3), commentFixture('again', 4, { jobId: 'j2' })],
      [stepFixture(1, 1, { text: 'Asked.' }), stepFixture(2, 5, { jobId: 'j2', text: 'Other job.' })],
    );
    expect(shape(itemRows(items, []))).toEqual(['go', 'movement', 'step step:1', 'stop-j1', 'again', 'step step:2']);
  });

  it('the live turn stays, marked stopped, when its job is cancelled; its step then takes its key', () => {
    const event = (e: Record<string, unknown>) =>
      ({ seq: 0, ts: atSecond(1), taskId: 't', jobId: 'j1', ...e }) as StreamEvent;
    let stream: JobStream | undefined = foldStreamJob(
      undefined,
      jobFixture({ id: 'j1', taskId: 't', status: 'running' }),
    );
    for (const e of [
      { type: 'TurnStart', turnCount: 1 },
      { type: 'LlmCallStart', llmCallCount: 1, attempt: 1 },
      { type: 'stream.delta', text: 'x'.repeat(1000), reasoning: '', toolCalls: [] },
    ])
      stream = foldStreamEvent(stream, event(e));
    stream = foldStreamJob(stream, jobFixture({ id: 'j1', taskId: 't', status: 'cancelled' }));
    expect(stream).toMatchObject({ llm: 'idle', stopped: true });
    const live = streamRows(stream ?? null, 'work');
    expect(live.map((r) => [r.kind, r.kind === 'turn' && r.text.length, r.kind === 'turn' && r.stopped])).toEqual([
      ['turn', 1000, true],
    ]);
    const recorded = foldStreamEvent(
      stream,
      event({ type: 'step.recorded', step: stepFixture(1, 6, { text: 'x'.repeat(1000) }) }),
    );
    const keys = streamedKeys(recorded);
    const rows = itemRows(
      chatItems([commentFixture('go', 0), note(5)], [stepFixture(1, 6, { text: 'x'.repeat(1000) })]),
      [],
      0,
      new Set(['j1']),
      (id) => keys.get(id),
    );
    const step = rows.find((r) => r.kind === 'step');
    expect(step?.key).toBe(live[0]?.key);
    expect(step?.kind === 'step' && step.stopped).toBe(true);
    expect(streamRows(recorded, 'work')).toEqual([]);
  });
});

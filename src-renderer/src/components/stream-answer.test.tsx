// The streamed `complete` call is the agent's answer: as its arguments arrive in pieces, the feed shows its message
// as Markdown in the agent's block, never the JSON; a refused one stays listed as failed with the reason; and the
// persisted result replaces the streamed answer without showing it twice (P7.16).
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Comment } from '../../../src-shared/entities';
import { foldStreamEvent, type JobStream, type StreamEvent } from '../store/job-stream';
import { StreamTurnRow } from './ChatMessageFeed';
import type { FeedRow } from './feed-rows';
import { streamRows, unreplaced } from './stream-rows';

type Without<T> = T extends unknown ? Omit<T, 'seq' | 'ts' | 'taskId' | 'jobId'> : never;
const ev = (e: Without<StreamEvent>) => ({ seq: 0, ts: '', taskId: 't', jobId: 'j1', ...e }) as StreamEvent;
const args = (piece: string, name?: string) =>
  ev({
    type: 'stream.delta',
    text: '',
    reasoning: '',
    toolCalls: [{ index: 0, ...(name ? { name } : {}), arguments: piece }],
  });
const fold = (events: StreamEvent[], start?: JobStream) =>
  events.reduce<JobStream | undefined>((s, e) => foldStreamEvent(s, e), start) as JobStream;

const answer = '## Summary\n\n- fixed `parse()` for "quoted" input\n- added tests\n\nAll green.';
/** The arguments as the model streams them, cut every 7 characters (so escapes are cut too). */
const pieces = (() => {
  const json = JSON.stringify({ status: 'success', message: answer });
  const out: string[] = [];
  for (let i = 0; i < json.length; i += 7) out.push(json.slice(i, i + 7));
  return out;
})();

const start = fold([
  ev({ type: 'TurnStart', turnCount: 1 }),
  ev({ type: 'LlmCallStart', llmCallCount: 1, attempt: 1 }),
  ev({ type: 'stream.delta', text: 'Finishing up.', reasoning: '', toolCalls: [] }),
]);

function renderRows(stream: JobStream): string {
  return streamRows(stream)
    .filter((r): r is Extract<FeedRow, { kind: 'turn' }> => r.kind === 'turn')
    .map((row) => renderToStaticMarkup(<StreamTurnRow row={row} />))
    .join('');
}

describe('the streamed answer', () => {
  it('P7.16 shows the message of a complete call as Markdown while it streams, never its JSON', () => {
    let stream = start;
    let sawHeading = false;
    pieces.forEach((piece, i) => {
      stream = fold([args(piece, i === 0 ? 'complete' : undefined)], stream);
      const html = renderRows(stream);
      expect(html, `after piece ${i}`).not.toMatch(/\{&quot;|&quot;status&quot;|&quot;message&quot;|\\n/);
      expect(html).not.toContain('data-testid="stream-tool"');
      expect(html).toContain('<p>Finishing up.</p>');
      if (html.includes('<h2>Summary</h2>')) sawHeading = true;
    });
    expect(sawHeading).toBe(true);
    const done = renderRows(
      fold(
        [ev({ type: 'tool.finished', callId: 'c1', name: 'complete', ok: true, preview: 'Task complete.' })],
        stream,
      ),
    );
    expect(done).toContain('<h2>Summary</h2>');
    expect(done).toContain('<li>fixed <code>parse()</code> for &quot;quoted&quot; input</li>');
    expect(done).toContain('<p>All green.</p>');
    expect(done).not.toContain('Task complete.');
  });

  it('lists a refused complete as a failed call with the reason, its text kept and its JSON not shown', () => {
    const stream = fold(
      [
        ...pieces.map((p, i) => args(p, i === 0 ? 'complete' : undefined)),
        ev({ type: 'tool.finished', callId: 'c1', name: 'complete', ok: false, preview: 'Error: asked 3 times' }),
      ],
      start,
    );
    const html = renderRows(stream);
    expect(html).toContain('<h2>Summary</h2>');
    expect(html).toMatch(/data-testid="stream-tool" data-status="error"/);
    expect(html).toContain('Error: asked 3 times');
    expect(html).not.toContain('&quot;status&quot;');
  });

  it('P7.16 drops the streamed answer once the persisted result of its job is among the comments', () => {
    const stream = fold(
      pieces.map((p, i) => args(p, i === 0 ? 'complete' : undefined)),
      start,
    );
    const result: Comment = {
      id: 'c9',
      taskId: 't',
      jobId: 'j1',
      author: 'agent',
      kind: 'result',
      body: answer,
      createdAt: '2026-01-01T00:00:00.000Z',
    };
    const other: Comment = { ...result, id: 'c8', jobId: 'j0' };
    expect(unreplaced(stream, [other])).toBe(stream);
    expect(unreplaced(stream, [{ ...result, kind: 'comment', author: 'user' }])).toBe(stream);
    expect(unreplaced(stream, [other, result])).toBeNull();

    // The feed a render behind (its stream is deferred): the result has come, the stream still holds the answer.
    expect(streamRows(unreplaced(stream, [other, result]))).toEqual([]);
  });
});

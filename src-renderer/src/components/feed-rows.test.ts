// The feed's rows: Invoke headers before the comment that started each Invoke (P9.18), the live generation as
// movement markers and one row per AgentTurn, stable keys, and height estimates that grow with the content.
import { describe, expect, it } from 'vitest';
import type { Comment } from '../../../src-shared/entities';
import type { JobStream, StreamTurn } from '../store/job-stream';
import { streamTurnFixture } from '../test-fixtures';
import { estimateRowHeight } from './feed-row-heights';
import { type FeedInvoke, type FeedRow, itemRows, PART_CHARS, turnParts } from './feed-rows';
import { streamRows } from './stream-rows';

const comment = (id: string, jobId: string | null, createdAt: string, extra: Partial<Comment> = {}): Comment => ({
  id,
  taskId: 't',
  jobId,
  author: 'user',
  kind: 'comment',
  body: id,
  createdAt,
  ...extra,
});
const invoke = (seq: number, kind: FeedInvoke['kind'], jobId: string, ts: string, label: string): FeedInvoke => ({
  seq,
  kind,
  jobId,
  ts,
  label,
  send: kind === 'UserSend' ? Number(label.replace(/\D/g, '')) || 1 : null,
});
const shape = (rows: FeedRow[]) => rows.map((r) => (r.kind === 'invoke' ? `[${r.invoke.label}]` : r.key));

describe('itemRows', () => {
  const comments = [
    comment('instruction', 'j1', '2026-01-01T00:00:00.000Z', { kind: 'instruction' }),
    comment('result1', 'j1', '2026-01-01T00:01:00.000Z', { author: 'agent', kind: 'result' }),
    comment('followup', 'j2', '2026-01-01T00:02:00.000Z'),
    comment('result2', 'j2', '2026-01-01T00:03:00.000Z', { author: 'agent', kind: 'result' }),
    comment('note', null, '2026-01-01T00:05:00.000Z', { author: 'system' }),
  ];

  it("P9.18 puts each Invoke's header before the first comment of its job, though the Invoke came after it", () => {
    const rows = itemRows(comments, [
      invoke(7, 'UserSend', 'j1', '2026-01-01T00:00:01.000Z', 'Send #1'),
      invoke(20, 'UserSend', 'j2', '2026-01-01T00:02:01.000Z', 'Send #2'),
    ]);
    expect(shape(rows)).toEqual(['[Send #1]', 'instruction', 'result1', '[Send #2]', 'followup', 'result2', 'note']);
    expect(rows.filter((r) => r.kind === 'invoke').map((r) => r.key)).toEqual(['invoke:7', 'invoke:20']);
  });

  it('places an Invoke without a comment of its own, or a later one of the same job, by its time', () => {
    const rows = itemRows(comments, [
      invoke(1, 'UserSend', 'j1', '2026-01-01T00:00:01.000Z', 'Send #1'),
      invoke(2, 'Notify', 'j1', '2026-01-01T00:00:30.000Z', 'Notify'),
      invoke(3, 'Wakeup', 'j9', '2026-01-01T00:04:00.000Z', 'Event'),
      invoke(4, 'Notify', 'j9', '2026-01-01T00:09:00.000Z', 'Notify'),
    ]);
    expect(shape(rows)).toEqual([
      '[Send #1]',
      'instruction',
      '[Notify]',
      'result1',
      'followup',
      'result2',
      '[Event]',
      'note',
      '[Notify]',
    ]);
  });

  it('never puts a header before an earlier one', () => {
    // The second job's Invoke is placed by its time; the first job's comment comes later in the list.
    const rows = itemRows(
      [comment('a', null, '2026-01-01T00:00:00.000Z'), comment('b', 'j1', '2026-01-01T00:02:00.000Z')],
      [
        invoke(1, 'Notify', 'j0', '2026-01-01T00:03:00.000Z', 'Notify'),
        invoke(2, 'UserSend', 'j1', '2026-01-01T00:02:01.000Z', 'Send #1'),
      ],
    );
    expect(shape(rows)).toEqual(['a', 'b', '[Notify]', '[Send #1]']);
  });

  it('is the comments alone when there are no Invokes', () => {
    expect(shape(itemRows(comments, []))).toEqual(comments.map((c) => c.id));
  });

  it("keeps a comment's row object across rebuilds, so a rendered row need not render again", () => {
    const before = itemRows(comments, []);
    const after = itemRows(comments, [invoke(1, 'UserSend', 'j1', '2026-01-01T00:00:01.000Z', 'Send #1')]);
    expect(after[1]).toBe(before[0]);
    expect(after.at(-1)).toBe(before.at(-1));
  });
});

const turn = (turnCount: number, movement: string | null, extra: Partial<StreamTurn> = {}): StreamTurn =>
  streamTurnFixture({ turnCount, movement, ...extra });
const stream = (turns: StreamTurn[], movement: string | null): JobStream => ({
  jobId: 'j1',
  llm: 'streaming',
  attempt: 1,
  movement,
  turns,
});

describe('streamRows', () => {
  it('marks each movement before its first turn and gives each AgentTurn a row; empty turns have none', () => {
    const rows = streamRows(
      stream(
        [
          turn(1, 'plan', { text: 'The plan.' }),
          turn(2, 'plan', { reasoning: 'hm' }),
          turn(3, 'implement', { text: 'Done.' }),
          turn(4, 'implement'),
        ],
        'implement',
      ),
    );
    expect(rows.map((r) => [r.kind, r.key])).toEqual([
      ['movement', 'movement:j1:0'],
      ['turn', 'turn:j1:t1:0'],
      ['turn', 'turn:j1:t2:0'],
      ['movement', 'movement:j1:1'],
      ['turn', 'turn:j1:t3:0'],
    ]);
    const turns = rows.filter((r) => r.kind === 'turn');
    expect(turns.map((r) => [r.first, r.last])).toEqual([
      [true, false],
      [false, false],
      [false, true],
    ]);
  });

  it('marks a movement entered after the last turn at the end, with the key the marker keeps once its turn shows', () => {
    const before = streamRows(stream([turn(1, 'plan', { text: 'The plan.' })], 'review'));
    expect(before.map((r) => r.key)).toEqual(['movement:j1:0', 'turn:j1:t1:0', 'movement:j1:1']);
    const after = streamRows(
      stream([turn(1, 'plan', { text: 'The plan.' }), turn(2, 'review', { text: 'Looks right.' })], 'review'),
    );
    expect(after.map((r) => r.key)).toEqual(['movement:j1:0', 'turn:j1:t1:0', 'movement:j1:1', 'turn:j1:t2:0']);
  });

  it('cuts a long answer into rows at block boundaries; the parts before the last stay as they were', () => {
    const paragraph = (i: number) => `Paragraph ${i}: ${'words '.repeat(30)}`.trim();
    const text = (n: number) => Array.from({ length: n }, (_, i) => paragraph(i)).join('\n\n');
    const long = text(60);
    const parts = turnParts(long);
    expect(parts.length).toBeGreaterThan(3);
    expect(parts.join('\n\n')).toBe(long);
    expect(parts.slice(0, -1).every((p) => p.length >= PART_CHARS)).toBe(true);
    // More text arrives (the last paragraph grows, new ones follow): the closed parts are unchanged.
    const grown = turnParts(`${text(60)} and more\n\n${paragraph(60)}\n\n${paragraph(61)}`);
    expect(grown.slice(0, parts.length - 1)).toEqual(parts.slice(0, -1));
    // A fence is never cut, and short text is one part.
    const fenced = `\`\`\`ts\n${'const x = 1;\n\n'.repeat(400)}\`\`\``;
    expect(turnParts(fenced)).toEqual([fenced]);
    expect(turnParts('short')).toEqual(['short']);

    const rows = streamRows(stream([turn(1, 'work', { text: long, reasoning: 'hm', toolCalls: [] })], 'work'));
    const turnRows = rows.filter((r) => r.kind === 'turn');
    expect(turnRows.map((r) => r.key)).toEqual(parts.map((_, k) => `turn:j1:t1:${k}`));
    expect(turnRows.map((r) => [r.first, r.turnStart, r.turnEnd, r.last])).toEqual(
      parts.map((_, k) => [k === 0, k === 0, k === parts.length - 1, k === parts.length - 1]),
    );
    expect(turnRows.map((r) => r.text)).toEqual(parts);
  });

  it('is empty without a stream', () => {
    expect(streamRows(null)).toEqual([]);
  });
});

describe('estimateRowHeight', () => {
  it('grows with the lines of a comment and with its code blocks', () => {
    const height = (body: string) =>
      estimateRowHeight({ kind: 'comment', key: 'c', comment: comment('c', null, '', { body }) });
    const short = height('ok');
    expect(short).toBeGreaterThan(40);
    expect(height('x'.repeat(900))).toBeGreaterThan(short + 100);
    expect(height('a\n```ts\nconst x = 1;\n```')).toBeGreaterThan(height('a\nconst x = 1;\nb\nc'));
  });

  it('gives a streamed turn room for its text and tool calls', () => {
    const row = (t: StreamTurn): FeedRow => ({
      kind: 'turn',
      key: 'k',
      jobId: 'j',
      turn: t,
      text: t.text,
      toolCalls: t.toolCalls,
      first: true,
      turnStart: true,
      turnEnd: true,
      last: true,
      depth: 0,
      stopped: false,
    });
    const call = { index: 0, name: 'read', arguments: '{}', status: 'ok' as const, preview: null };
    expect(estimateRowHeight(row(turn(1, null, { toolCalls: [call, call] })))).toBeGreaterThan(
      estimateRowHeight(row(turn(1, null, { toolCalls: [call] }))),
    );
  });
});

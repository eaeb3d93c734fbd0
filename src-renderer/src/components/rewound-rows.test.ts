// A conversation rewind in the chat (issue 22): the Sends it took back are folded under their own header, marked,
// and open to read; the Sends before and after, and the live generation, are not folded.
import { describe, expect, it } from 'vitest';
import { atSecond, commentFixture, streamTurnFixture } from '../test-fixtures';
import type { FeedInvoke, FeedRow } from './feed-rows';
import { foldRewound } from './rewound-rows';

const header = (seq: number, send: number): FeedRow => {
  const invoke: FeedInvoke = { seq, kind: 'UserSend', jobId: `j${send}`, ts: '', label: `Send #${send}`, send };
  return { kind: 'invoke', key: `invoke:${seq}`, invoke };
};
const comment = (id: string, s = 0): FeedRow => ({ kind: 'comment', key: id, comment: commentFixture(id, s) });
const live: FeedRow = {
  kind: 'turn',
  key: 'live',
  jobId: 'j9',
  turn: streamTurnFixture(),
  text: '',
  toolCalls: [],
  first: true,
  turnStart: true,
  turnEnd: true,
  last: true,
  depth: 0,
  stopped: false,
};

const rows: FeedRow[] = [
  header(1, 1),
  comment('a'),
  comment('b'),
  header(5, 2),
  comment('c'),
  comment('d'),
  header(9, 3),
  comment('e'),
  header(12, 4),
  comment('f'),
  live,
];
const keys = (list: readonly FeedRow[]) => list.map((r) => r.key);
/** A rewind at Send #2 of a task that went on to Send #3: [5, 12), made at second 100. */
const REWOUND_AT = atSecond(100);
const rewound = (seq: number) => (seq >= 5 && seq < 12 ? REWOUND_AT : null);

describe('foldRewound', () => {
  it('folds the rows of each rewound Send under its header, leaving the Sends around them as they were', () => {
    const folded = foldRewound(rows, rewound, new Set());
    expect(keys(folded)).toEqual([
      'invoke:1',
      'a',
      'b',
      'invoke:5',
      'rewound:5',
      'invoke:9',
      'rewound:9',
      'invoke:12',
      'f',
      'live',
    ]);
    expect(folded.find((r) => r.key === 'rewound:5')).toEqual({
      kind: 'rewound',
      key: 'rewound:5',
      seq: 5,
      count: 2,
      open: false,
    });
  });

  it('shows the rows of a rewound Send the reader opened, after its fold row, and only those', () => {
    const opened = foldRewound(rows, rewound, new Set([9]));
    expect(keys(opened)).toEqual([
      'invoke:1',
      'a',
      'b',
      'invoke:5',
      'rewound:5',
      'invoke:9',
      'rewound:9',
      'e',
      'invoke:12',
      'f',
      'live',
    ]);
    expect(opened.find((r) => r.key === 'rewound:9')).toMatchObject({ open: true, count: 1 });
  });

  it('never folds the live generation, and returns the same rows when nothing is rewound', () => {
    const last: FeedRow[] = [header(1, 1), comment('a'), live];
    expect(keys(foldRewound(last, () => REWOUND_AT, new Set()))).toEqual(['invoke:1', 'rewound:1', 'live']);
    expect(foldRewound(rows, () => null, new Set())).toBe(rows);
  });

  it('adds no fold row for a rewound header with nothing under it', () => {
    const bare: FeedRow[] = [header(5, 2), header(9, 3), comment('e')];
    expect(keys(foldRewound(bare, (seq) => (seq === 5 ? REWOUND_AT : null), new Set()))).toEqual([
      'invoke:5',
      'invoke:9',
      'e',
    ]);
  });

  it('leaves out of the fold what was written after the rewind (the host saying what it did)', () => {
    const said: FeedRow[] = [header(5, 2), comment('c'), comment('d'), comment('rewound-note', 100), header(12, 3)];
    expect(keys(foldRewound(said, rewound, new Set()))).toEqual(['invoke:5', 'rewound:5', 'rewound-note', 'invoke:12']);
  });
});

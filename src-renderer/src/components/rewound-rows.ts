// The chat's rows with the Sends a conversation rewind took back folded: each rewound Invoke keeps its header (marked
// "Rewound — not sent to the model"), followed by one row that opens what it held — its rows up to the next header —
// to read. Nothing of them is sent to the model again (the host replays the transcript only up to the rewind's seq).
import type { FeedRow } from './feed-rows';

/**
 * `rewoundAt`: when the Invoke with this seq was rewound, or null when it was not; `open`: the seqs whose rows the
 * reader opened. The rows of a rewound Invoke run from its header to the next header, the live generation (never
 * rewound: a rewind is refused while a job is active) or the first item written since the rewind (what the host said
 * about the rewind itself is not part of what it took back).
 */
export function foldRewound(
  rows: readonly FeedRow[],
  rewoundAt: (seq: number) => string | null,
  open: ReadonlySet<number>,
): readonly FeedRow[] {
  if (!rows.some((row) => row.kind === 'invoke' && rewoundAt(row.invoke.seq) !== null)) return rows;
  const out: FeedRow[] = [];
  let i = 0;
  while (i < rows.length) {
    const row = rows[i] as FeedRow;
    out.push(row);
    i++;
    const since = row.kind === 'invoke' ? rewoundAt(row.invoke.seq) : null;
    if (row.kind !== 'invoke' || since === null) continue;
    let end = i;
    while (end < rows.length && !endsSegment(rows[end] as FeedRow, since)) end++;
    if (end === i) continue;
    const seq = row.invoke.seq;
    const shown = open.has(seq);
    out.push({ kind: 'rewound', key: `rewound:${seq}`, seq, count: end - i, open: shown });
    if (shown) out.push(...rows.slice(i, end));
    i = end;
  }
  return out;
}

function endsSegment(row: FeedRow, since: string): boolean {
  switch (row.kind) {
    case 'invoke':
    case 'turn':
    case 'older':
      return true;
    case 'comment':
      return row.comment.createdAt >= since;
    case 'step':
      return row.step.createdAt >= since;
    case 'files':
    case 'movement':
    case 'rewound':
      return false;
    default: {
      const unknown: never = row;
      throw new Error(`unknown feed row ${JSON.stringify(unknown)}`);
    }
  }
}

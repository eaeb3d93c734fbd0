// The chat's rows with the Sends a conversation rewind took back folded: each rewound Invoke keeps its header (marked
// "Rewound — not sent to the model"), followed by one row that opens what it held — its rows up to the next header —
// to read. Nothing of them is sent to the model again (the host replays the transcript only up to the rewind's seq).
import type { FeedRow } from './feed-rows';

/**
 * `rewound`: whether the Invoke with this seq was rewound; `open`: the seqs whose rows the reader opened. The rows
 * of a rewound Invoke run from its header to the next header (or the live generation, never rewound: a rewind is
 * refused while a job is active).
 */
export function foldRewound(
  rows: readonly FeedRow[],
  rewound: (seq: number) => boolean,
  open: ReadonlySet<number>,
): readonly FeedRow[] {
  if (!rows.some((row) => row.kind === 'invoke' && rewound(row.invoke.seq))) return rows;
  const out: FeedRow[] = [];
  let i = 0;
  while (i < rows.length) {
    const row = rows[i] as FeedRow;
    out.push(row);
    i++;
    if (row.kind !== 'invoke' || !rewound(row.invoke.seq)) continue;
    let end = i;
    while (end < rows.length && !endsSegment(rows[end] as FeedRow)) end++;
    if (end === i) continue;
    const seq = row.invoke.seq;
    const shown = open.has(seq);
    out.push({ kind: 'rewound', key: `rewound:${seq}`, seq, count: end - i, open: shown });
    if (shown) out.push(...rows.slice(i, end));
    i = end;
  }
  return out;
}

function endsSegment(row: FeedRow): boolean {
  return row.kind === 'invoke' || row.kind === 'turn';
}

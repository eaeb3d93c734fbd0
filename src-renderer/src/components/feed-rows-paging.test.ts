// The feed's rows when only the latest comments are loaded: the row that loads earlier ones comes first, and the
// Invoke headers (P9.18) among the loaded comments are exactly those of the whole conversation there, numbered as in
// the whole (Send #N counts every Invoke of the task, not the loaded ones).
import { describe, expect, it } from 'vitest';
import type { Comment } from '../../../src-shared/entities';
import type { InvokeKind } from '../../../src-shared/events';
import { type FeedInvoke, type FeedRow, itemRows, OLDER_KEY } from './feed-rows';
import { invokeHeaders, sendNumbers } from './invoke-headers';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000).toISOString();

/**
 * A conversation of four jobs as the Worker writes it: each Invoke a moment after the comment that started its job,
 * a Notify of job j3 between its comments, a system note of no job, and an Event Invoke of a job with no comment.
 */
function conversation(): { comments: Comment[]; invokes: FeedInvoke[] } {
  const comments: Comment[] = [];
  const invokes: { kind: InvokeKind; jobId: string; ts: string }[] = [];
  let s = 0;
  const say = (jobId: string | null, n = 1) => {
    for (let i = 0; i < n; i++) {
      s += 10;
      comments.push({
        id: `c${comments.length}`,
        taskId: 't',
        jobId,
        author: 'agent',
        kind: 'comment',
        body: '',
        createdAt: at(s),
      });
    }
  };
  const invoke = (kind: InvokeKind, jobId: string) => {
    s += 1;
    invokes.push({ kind, jobId, ts: at(s) });
  };
  say('j1');
  invoke('UserSend', 'j1');
  say('j1', 3);
  say('j2');
  invoke('UserSend', 'j2');
  say('j2', 2);
  say(null);
  say('j3');
  invoke('UserSend', 'j3');
  say('j3', 2);
  invoke('Notify', 'j3');
  say('j3', 2);
  invoke('Wakeup', 'j4');
  say(null);
  say('j5');
  invoke('UserSend', 'j5');
  say('j5', 3);
  const labels = invokeHeaders(invokes);
  const sends = sendNumbers(invokes);
  return {
    comments,
    invokes: invokes.map((x, i) => ({ ...x, seq: i + 1, label: labels[i] ?? '', send: sends[i] ?? null })),
  };
}

const keys = (rows: readonly FeedRow[]) => rows.map((r) => r.key);

describe('itemRows of the latest comments only', () => {
  it('P9.18 every page boundary: the headers among the loaded comments are those of the whole conversation', () => {
    const { comments, invokes } = conversation();
    const whole = itemRows(comments, invokes);
    for (let k = 1; k < comments.length; k++) {
      const loaded = itemRows(comments.slice(k), invokes, k);
      // The whole conversation's rows from the k-th comment on, with the headers placed right before it that head
      // their job's first comment. A header placed by its time right at the boundary (a Notify, an Event) cannot be
      // told from one before the comment not loaded above it: it shows once the page before is loaded.
      let from = whole.findIndex((r) => r.key === comments[k]?.id);
      while (
        whole[from - 1]?.kind === 'invoke' &&
        (whole[from - 1] as { invoke: FeedInvoke }).invoke.kind === 'UserSend'
      ) {
        from--;
      }
      expect(keys(loaded), `${k} comments not loaded`).toEqual([OLDER_KEY, ...keys(whole.slice(from))]);
    }
    expect(keys(itemRows(comments, invokes, 0))).toEqual(keys(whole));
  });

  it('keeps the numbering of the whole: the last send is "Send #4" whatever is loaded', () => {
    const { comments, invokes } = conversation();
    const rows = itemRows(comments.slice(-4), invokes, comments.length - 4);
    expect(rows[0]).toEqual({ kind: 'older', key: OLDER_KEY, count: comments.length - 4 });
    const headers = rows.flatMap((r) => (r.kind === 'invoke' ? [r.invoke.label] : []));
    expect(headers).toEqual(['Send #4']);
    // Without headers, the row above the comments is all that is added.
    expect(keys(itemRows(comments.slice(-2), [], 5))).toEqual([OLDER_KEY, ...comments.slice(-2).map((c) => c.id)]);
  });
});

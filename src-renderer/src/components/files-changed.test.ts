// A job's "Files changed" block: the files its steps wrote or edited successfully, once each with the lines added and
// removed over all its changes and each change's diff (the whole one when the step kept it), placed after the job's
// closing comment — its result, question or error, or the system's note of a cancel — and counted from the loaded
// steps only.
import { describe, expect, it } from 'vitest';
import type { ChatStep, StepToolCall } from '../../../src-shared/entities';
import { chatItems } from '../store/chat-items';
import { commentFixture, stepFixture } from '../test-fixtures';
import { type FeedRow, itemRows } from './feed-rows';
import { filesChanged } from './files-changed';

const comment = commentFixture;
const step = (seq: number, s: number, toolCalls: StepToolCall[], extra: Partial<ChatStep> = {}): ChatStep =>
  stepFixture(seq, s, { toolCalls, ...extra });

/** A call of `name` on `path` answered with `content` (ok unless it starts with Error). */
const answered = (id: string, name: string, path: string, content: string, display?: string): StepToolCall => ({
  id,
  name,
  arguments: JSON.stringify({ path }),
  result: {
    ok: !content.startsWith('Error'),
    content,
    chars: content.length,
    ...(display === undefined ? {} : { display }),
  },
});

const edit = (id: string, path: string, removed: string[], added: string[]) =>
  answered(
    id,
    'edit_file',
    path,
    [
      `Edited ${path}: replaced 1 occurrence`,
      `--- a/${path}`,
      `+++ b/${path}`,
      `@@ -1,${removed.length} +1,${added.length} @@`,
      ...removed.map((l) => `-${l}`),
      ...added.map((l) => `+${l}`),
    ].join('\n'),
  );

describe('filesChanged', () => {
  it('lists each file once in the order first changed, summing its changes; failed calls and reads are left out', () => {
    const files = filesChanged([
      step(1, 1, [
        edit('c1', 'src/a.ts', ['x'], ['y', 'z']),
        answered('c2', 'read_file', 'src/b.ts', 'contents'),
        answered('c3', 'write_file', 'src/c.ts', 'Error: write_file is not allowed'),
      ]),
      step(2, 2, [edit('c4', 'b.md', [], ['new']), edit('c5', 'src/a.ts', ['y', 'z'], ['w'])], { depth: 1 }),
    ]);
    expect(files.map((f) => [f.path, f.added, f.removed, f.changes.map((c) => c.callId)])).toEqual([
      ['src/a.ts', 3, 3, ['c1', 'c5']],
      ['b.md', 1, 0, ['c4']],
    ]);
    expect(files[0]?.changes[0]).toMatchObject({
      tool: 'edit_file',
      summary: 'Edited src/a.ts: replaced 1 occurrence',
      diff: '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,1 +1,2 @@\n-x\n+y\n+z',
      added: 2,
      removed: 1,
    });
  });

  it('reads the whole diff (display) when the step kept one, and names a change without a diff by its path', () => {
    const whole = ['Created big.txt (9 bytes)', '--- /dev/null', '+++ b/big.txt', '@@ -0,0 +1,3 @@', '+1', '+2', '+3'];
    const capped = `${whole.slice(0, 5).join('\n')}\n… (2 more diff lines not shown)`;
    const files = filesChanged([
      step(1, 1, [
        answered('c1', 'write_file', 'big.txt', capped, whole.join('\n')),
        answered('c2', 'write_file', 'pic.png', 'Replaced pic.png (4 bytes)\n(no diff: the old file was binary)'),
        { id: 'c3', name: 'write_file', arguments: '{"path":"later.txt"}', result: null },
      ]),
    ]);
    expect(files.map((f) => [f.path, f.added, f.removed])).toEqual([
      ['big.txt', 3, 0],
      ['pic.png', 0, 0],
    ]);
    expect(files[1]?.changes[0]?.diff).toBe('(no diff: the old file was binary)');
  });
});

const filesRows = (rows: FeedRow[]) =>
  rows.flatMap((r, i) =>
    r.kind === 'files'
      ? [{ after: rows[i - 1]?.key, job: r.jobId, paths: r.files.map((f) => f.path), partial: r.partial }]
      : [],
  );

describe('the files row in the feed', () => {
  const steps = [step(1, 1, [edit('c1', 'a.ts', ['x'], ['y'])]), step(2, 2, [edit('c2', 'b.ts', [], ['z'])])];

  it('comes right after the job’s closing comment (its last one when it asked first), not before it ends', () => {
    const running = itemRows(chatItems([comment('go', 0)], steps), []);
    expect(filesRows(running)).toEqual([]);
    const items = chatItems(
      [
        comment('go', 0),
        comment('q', 1, { author: 'agent', kind: 'question' }),
        comment('a', 1, { kind: 'answer' }),
        comment('done', 3, { author: 'agent', kind: 'result' }),
        comment('thanks', 4, { kind: 'comment', jobId: null }),
      ],
      steps,
    );
    expect(filesRows(itemRows(items, []))).toEqual([
      { after: 'done', job: 'j1', paths: ['a.ts', 'b.ts'], partial: false },
    ]);
  });

  it('a cancelled job gets it after the system note of the cancel; a job that changed nothing gets none', () => {
    const cancel = comment('cancelled', 3, { author: 'system', kind: 'comment', body: 'Cancelled.' });
    const items = chatItems([comment('go', 0), cancel], steps);
    expect(filesRows(itemRows(items, []))).toEqual([]);
    expect(filesRows(itemRows(items, [], 0, new Set(['j1'])))).toEqual([
      { after: 'cancelled', job: 'j1', paths: ['a.ts', 'b.ts'], partial: false },
    ]);
    const nothing = chatItems(
      [comment('go', 0), comment('done', 3, { author: 'agent', kind: 'result' })],
      [step(1, 1, [])],
    );
    expect(filesRows(itemRows(nothing, []))).toEqual([]);
  });

  it('says when the job’s earlier steps are not loaded; the row is the same object while its steps are', () => {
    const items = chatItems([comment('done', 3, { author: 'agent', kind: 'result' })], steps.slice(1));
    const rows = itemRows(items, [], 5);
    expect(filesRows(rows)).toEqual([{ after: 'done', job: 'j1', paths: ['b.ts'], partial: true }]);
    const again = itemRows([...items], [], 5);
    expect(again.find((r) => r.kind === 'files')).toBe(rows.find((r) => r.kind === 'files'));
  });
});

// A failed model call is one row (issue 23, point 3; P4.23): once the job's error comment is loaded, the AgentTurn the
// failure ended no longer says the same server text — left out when that was all it had, kept without it when it had
// written something first — and the rows stay the same objects from one rebuild to the next (measured heights stay).
import { describe, expect, it } from 'vitest';
import { chatItems } from '../store/chat-items';
import { commentFixture, stepFixture } from '../test-fixtures';
import { foldErrorRows } from './error-rows';
import { type FeedRow, itemRows } from './feed-rows';

const SERVER = 'LLM request refused: 401 scripted-llm-server: missing or wrong API key';
const instruction = commentFixture('instruction', 1);
const errorComment = commentFixture('error', 9, { author: 'system', kind: 'error', body: `LLM: ${SERVER}` });
const failed = stepFixture(3, 5, { error: SERVER });

const rowsOf = (comments = [instruction, errorComment], steps = [failed]) => itemRows(chatItems(comments, steps), []);
const errorsShown = (rows: FeedRow[]) =>
  rows.filter(
    (r) => (r.kind === 'step' && r.step.error !== null) || (r.kind === 'comment' && r.comment.kind === 'error'),
  );

describe('foldErrorRows', () => {
  it('a failed call with its error comment: one error row, the comment', () => {
    const rows = rowsOf();
    expect(errorsShown(rows).map((r) => r.key)).toEqual(['error']);
    expect(rows.some((r) => r.kind === 'step')).toBe(false);
  });

  it('before the error comment arrives, the failed turn says it (the error is never hidden)', () => {
    const rows = rowsOf([instruction]);
    expect(errorsShown(rows).map((r) => r.key)).toEqual([failed.id]);
  });

  it('a turn that wrote something before failing keeps its text and calls, without the error', () => {
    const call = { id: 'c1', name: 'read_file', arguments: '{"path":"a"}', result: null };
    const wrote = stepFixture(3, 5, { error: SERVER, text: 'Reading the file first.', toolCalls: [call] });
    const rows = rowsOf(undefined, [wrote]);
    const step = rows.find((r) => r.kind === 'step');
    expect(step?.kind === 'step' && step.step.error).toBeNull();
    expect(step?.kind === 'step' && step.text).toBe('Reading the file first.');
    expect(errorsShown(rows).map((r) => r.key)).toEqual(['error']);
    // The same object on the next rebuild: the feed keeps its DOM and measured height.
    expect(rowsOf(undefined, [wrote]).find((r) => r.kind === 'step')).toBe(step);
  });

  it("another job's failed turn keeps its error; rows without any error comment are returned as they are", () => {
    const other = stepFixture(4, 6, { error: SERVER, jobId: 'j2' });
    const rows = rowsOf(undefined, [failed, other]);
    expect(errorsShown(rows).map((r) => r.key)).toEqual([other.id, 'error']);
    const plain = itemRows(chatItems([instruction], [other]), []);
    expect(foldErrorRows(plain)).toBe(plain);
  });
});

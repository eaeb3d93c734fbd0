// A failed model call is one row of the chat: its job's error comment (the person's words, the server's text folded,
// Retry and Edit profile). The AgentTurn the failure ended is recorded too, with the same server text as its error;
// while that job's error comment is loaded, the turn's row says nothing of it — left out when the error was all it
// had, shown without it when it had written something first.
import type { ChatStep } from '../../../src-shared/entities';
import type { FeedRow } from './feed-rows';

type StepRow = Extract<FeedRow, { kind: 'step' }>;

/** The rows with each failed turn's error said once, by its job's error comment. The same rows when none is. */
export function foldErrorRows(rows: FeedRow[]): FeedRow[] {
  const erred = jobsWithErrorComment(rows);
  if (erred.size === 0) return rows;
  const folded: FeedRow[] = [];
  for (const row of rows) {
    if (row.kind !== 'step' || row.step.error === null || !erred.has(row.step.jobId)) {
      folded.push(row);
      continue;
    }
    const quiet = withoutError(row);
    if (quiet) folded.push(quiet);
  }
  return folded;
}

function jobsWithErrorComment(rows: readonly FeedRow[]): Set<string> {
  const jobs = new Set<string>();
  for (const row of rows) {
    if (row.kind === 'comment' && row.comment.kind === 'error' && row.comment.jobId) jobs.add(row.comment.jobId);
  }
  return jobs;
}

/** The same object for the same row, so the feed's memoized row and its measured height stay. */
const QUIET = new WeakMap<StepRow, StepRow | null>();

/** The row without its step's error; null when nothing else of the step is in it. */
function withoutError(row: StepRow): StepRow | null {
  const known = QUIET.get(row);
  if (known !== undefined) return known;
  const step: ChatStep = { ...row.step, error: null };
  const said = row.text.trim() !== '' || row.toolCalls.length > 0 || (row.turnStart && row.step.reasoning !== '');
  const quiet = said ? { ...row, step } : null;
  QUIET.set(row, quiet);
  return quiet;
}

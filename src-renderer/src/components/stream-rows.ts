// The rows of the live generation not recorded yet (the feed shows them after its persisted rows, see feed-rows.ts):
// one per part of each AgentTurn's text with a movement marker wherever the movement changes, the sub-agent turns of
// a running delegate call one level deeper; and the keys a recorded turn's step takes over.
import type { Comment } from '../../../src-shared/entities';
import { closesStream, type JobStream, type StreamToolCall, type StreamTurn, UNSEEN_STEP } from '../store/job-stream';
import { turnView } from '../store/stream-answer';
import { type FeedRow, turnParts } from './feed-rows';

const NO_CALLS: readonly StreamToolCall[] = [];

/** A turn with nothing to show yet (just started) has no row. */
function visible(turn: StreamTurn): boolean {
  return !!turn.text || !!turn.reasoning || turn.toolCalls.length > 0 || turn.discarded > 0;
}

/**
 * The stream unless the comments already hold the persisted item that replaces it: the feed may render a stream a
 * step behind (it is deferred), and the answer must never show twice, once streamed and once persisted. Only the
 * newest comments can be of the stream's job.
 */
export function unreplaced(stream: JobStream | null, comments: readonly Comment[]): JobStream | null {
  if (!stream) return null;
  for (let i = comments.length - 1; i >= 0; i--) {
    const comment = comments[i] as Comment;
    if (comment.jobId !== stream.jobId) break;
    if (closesStream(stream, comment)) return null;
  }
  return stream;
}

/**
 * The live generation not recorded yet: rows for each AgentTurn with something to show (one per part of its text) —
 * a recorded turn is shown by its step, but the sub-agent turns of its running delegate call that are not recorded
 * yet come after it, one level deeper. Each of the job's own turns is preceded by a marker when it started in another
 * movement than the one before (`movement`: the last one the persisted steps showed); a movement entered after the
 * last turn is marked at the end. The k-th marker keeps its key whether it trails or heads a turn, so it is not
 * re-measured when the turn appears.
 */
export function streamRows(stream: JobStream | null, movement: string | null = null): FeedRow[] {
  if (!stream) return [];
  const rows: FeedRow[] = [];
  let current = movement;
  let markers = 0;
  const mark = (name: string | null) => {
    if (name === null || name === current) return;
    current = name;
    rows.push({ kind: 'movement', key: `movement:${stream.jobId}:${markers++}`, movement: name });
  };
  const shown = liveTurns(stream.turns, 0, turnKey(stream.jobId));
  shown.forEach(({ turn, key, depth }, i) => {
    if (depth === 0) mark(turn.movement);
    const view = turnView(turn);
    const parts = turnParts(view.text);
    parts.forEach((text, k) => {
      const turnEnd = k === parts.length - 1;
      rows.push({
        kind: 'turn',
        key: `${key}:${k}`,
        jobId: stream.jobId,
        turn,
        text,
        toolCalls: turnEnd ? view.toolCalls : NO_CALLS,
        first: i === 0 && k === 0,
        turnStart: k === 0,
        turnEnd,
        last: i === shown.length - 1 && turnEnd,
        depth,
        stopped: !!stream.stopped && i === shown.length - 1 && turnEnd,
      });
    });
  });
  mark(stream.movement);
  return rows;
}

/**
 * The key of a job's turns (`prefix` the job's), by the turn's id, never its place: a job resumed after an approval
 * streams its turns from the first place again, and their rows must not take the keys of the steps before them.
 */
/**
 * The live rows not shown already: a row whose key a persisted row has is the step that recorded its turn and took
 * its key (a step is never shown twice, once recorded and once live).
 */
export function besidePersisted(persisted: ReadonlySet<string>, live: FeedRow[]): FeedRow[] {
  return live.some((row) => persisted.has(row.key)) ? live.filter((row) => !persisted.has(row.key)) : live;
}

/** The keys of `rows`, for besidePersisted. */
export const rowKeys = (rows: readonly FeedRow[]): ReadonlySet<string> => new Set(rows.map((row) => row.key));

const turnKey = (jobId: string) => `turn:${jobId}:`;
const keyOf = (prefix: string, turn: StreamTurn) => `${prefix}${turn.id}`;
const nestedPrefix = (key: string, call: StreamToolCall) => `${key}.${call.index}.`;

/** The keys of the stream's recorded turns by the step that recorded each: the keys their steps' rows take over. */
export function streamedKeys(stream: JobStream | null): Map<string, string> {
  const keys = new Map<string, string>();
  const walk = (turns: readonly StreamTurn[], prefix: string) => {
    for (const turn of turns) {
      const key = keyOf(prefix, turn);
      if (turn.stepId !== null && turn.stepId !== UNSEEN_STEP) keys.set(turn.stepId, key);
      for (const call of turn.toolCalls) if (call.nested) walk(call.nested, nestedPrefix(key, call));
    }
  };
  if (stream) walk(stream.turns, turnKey(stream.jobId));
  return keys;
}

/** The turns not recorded yet with something to show, sub-agents' included, in order, each with its key. */
function liveTurns(
  turns: readonly StreamTurn[],
  depth: number,
  prefix: string,
): { turn: StreamTurn; key: string; depth: number }[] {
  return turns.flatMap((turn) => {
    const key = keyOf(prefix, turn);
    if (turn.stepId === null) return visible(turn) ? [{ turn, key, depth }] : [];
    return turn.toolCalls.flatMap((call) =>
      call.nested && call.status === 'running' ? liveTurns(call.nested, depth + 1, nestedPrefix(key, call)) : [],
    );
  });
}

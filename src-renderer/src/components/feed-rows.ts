// The rows of the chat feed, in order: while older comments are not loaded, a row that loads them; the persisted
// comments with the Invoke headers placed among them, then the live generation as a movement marker wherever its movement changes and one row per AgentTurn. Each row has a stable key
// (the virtualized feed keeps measured heights by key) and an estimated height for rows never measured yet.
import type { Comment } from '../../../src-shared/entities';
import type { InvokeKind } from '../../../src-shared/events';
import { closesStream, type JobStream, type StreamToolCall, type StreamTurn } from '../store/job-stream';
import { turnView } from '../store/stream-answer';
import { splitBlocks } from './Markdown';

/** An Invoke of the task (from its usage), with its header text ("Send #2", "Notify"). */
export interface FeedInvoke {
  seq: number;
  kind: InvokeKind;
  jobId: string;
  ts: string;
  label: string;
}

export type FeedRow =
  /** Above the comments loaded while older ones exist: loads them (or says they are loading). */
  | { kind: 'older'; key: string; count: number }
  | { kind: 'comment'; key: string; comment: Comment }
  | { kind: 'invoke'; key: string; invoke: FeedInvoke }
  | { kind: 'movement'; key: string; movement: string }
  | {
      kind: 'turn';
      key: string;
      jobId: string;
      turn: StreamTurn;
      /** This row's part of the turn's text and answer (a long answer is cut into parts, see turnParts). */
      text: string;
      /** The turn's tool calls to list (its answer is in the text), on its last part; empty on the others. */
      toolCalls: readonly StreamToolCall[];
      /** The first part of the first turn shown: it carries the block's header. */
      first: boolean;
      /** The turn's first part: its retry note and reasoning go there. */
      turnStart: boolean;
      /** The turn's last part: its tool calls go there, and it is the one still growing. */
      turnEnd: boolean;
      /** The last row of the generation. */
      last: boolean;
    };

/**
 * The comments with each Invoke's header before the comment that started it: the first comment of the Invoke's job
 * (the instruction, the follow-up comment, the answer), or, for a job with no comment yet or a later Invoke of the
 * same job, the first comment written after it. Headers never go before an earlier header.
 *
 * `olderCount` comments before these are not loaded (the feed loads the latest page first). A header that belongs
 * among them is left out until they are loaded, rather than piled up above the first comment loaded: an Invoke before
 * the first comment loaded, unless its job's first comment is loaded. Only the job of the first comments loaded can
 * have comments on both sides of that boundary (a task's jobs run one after another), so for that job the loaded
 * comment is trusted only when the Invoke came after the boundary. (An Invoke placed by its time that falls between
 * the last comment not loaded and the first loaded cannot be told from an earlier one: its header shows once the page
 * before is loaded.)
 */
export function commentRows(comments: readonly Comment[], invokes: readonly FeedInvoke[], olderCount = 0): FeedRow[] {
  const rows: FeedRow[] = olderCount > 0 ? [{ kind: 'older', key: OLDER_KEY, count: olderCount }] : [];
  if (invokes.length === 0) {
    for (const comment of comments) rows.push(commentRow(comment));
    return rows;
  }
  const firstOfJob = new Map<string, number>();
  comments.forEach((c, i) => {
    if (c.jobId && !firstOfJob.has(c.jobId)) firstOfJob.set(c.jobId, i);
  });
  const boundary = olderCount > 0 ? comments[0]?.createdAt : undefined;
  const straddling = boundary === undefined ? undefined : comments.find((c) => c.jobId)?.jobId;
  const headers = new Map<number, FeedInvoke[]>();
  const placedJobs = new Set<string>();
  let floor = 0;
  let shown = false;
  for (const invoke of [...invokes].sort((a, b) => a.seq - b.seq)) {
    const ofJob = placedJobs.has(invoke.jobId) ? undefined : firstOfJob.get(invoke.jobId);
    placedJobs.add(invoke.jobId);
    const exact = ofJob !== undefined && invoke.jobId !== straddling;
    // Headers keep their order, so once one is shown, every later one is too.
    if (!shown && !exact && boundary !== undefined && invoke.ts < boundary) continue;
    shown = true;
    const at = Math.max(floor, ofJob ?? firstAtOrAfter(comments, invoke.ts));
    floor = at;
    headers.set(at, [...(headers.get(at) ?? []), invoke]);
  }
  const pushHeaders = (at: number) => {
    for (const invoke of headers.get(at) ?? []) rows.push({ kind: 'invoke', key: `invoke:${invoke.seq}`, invoke });
  };
  comments.forEach((comment, i) => {
    if (headers.has(i)) pushHeaders(i);
    rows.push(commentRow(comment));
  });
  pushHeaders(comments.length);
  return rows;
}

/** The key of the row above the comments loaded; one key, so its height is measured once. */
export const OLDER_KEY = 'older';

/** A comment never changes, so neither does its row: the rows of a rebuilt list are the same objects as before. */
const COMMENT_ROWS = new WeakMap<Comment, FeedRow>();

function commentRow(comment: Comment): FeedRow {
  let row = COMMENT_ROWS.get(comment);
  if (!row) {
    row = { kind: 'comment', key: comment.id, comment };
    COMMENT_ROWS.set(comment, row);
  }
  return row;
}

/** Index of the first comment created at or after `ts` (comments are oldest first); their count when none is. */
function firstAtOrAfter(comments: readonly Comment[], ts: string): number {
  let lo = 0;
  let hi = comments.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((comments[mid] as Comment).createdAt < ts) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const NO_CALLS: readonly StreamToolCall[] = [];

/** A turn with nothing to show yet (just started) has no row. */
function visible(turn: StreamTurn): boolean {
  return !!turn.text || !!turn.reasoning || turn.toolCalls.length > 0 || turn.discarded > 0;
}

/** Text per row of a streamed answer: a few screens, so the DOM holds only the parts near the viewport. */
export const PART_CHARS = 2000;

/**
 * A turn's text cut into parts at Markdown block boundaries (blocks parse alone as they do inside the whole), each
 * part closed once it holds PART_CHARS. Blocks before the last never change as text arrives, so neither do the parts
 * before the last: only the last part of a streaming answer renders again.
 */
export function turnParts(text: string): string[] {
  if (text.length <= PART_CHARS) return [text];
  const parts: string[] = [];
  let part: string[] = [];
  let length = 0;
  for (const block of splitBlocks(text)) {
    part.push(block);
    length += block.length + 2;
    if (length >= PART_CHARS) {
      parts.push(part.join('\n\n'));
      part = [];
      length = 0;
    }
  }
  if (part.length > 0 || parts.length === 0) parts.push(part.join('\n\n'));
  return parts;
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
 * The live generation: rows for each AgentTurn with something to show (one per part of its text), each turn preceded
 * by a marker when it started in another movement than the turn before; a movement entered after the last turn is
 * marked at the end. The k-th marker keeps its key whether it trails or heads a turn, so it is not re-measured when
 * the turn appears.
 */
export function streamRows(stream: JobStream | null): FeedRow[] {
  if (!stream) return [];
  const rows: FeedRow[] = [];
  let movement: string | null = null;
  let markers = 0;
  const mark = (name: string | null) => {
    if (name === null || name === movement) return;
    movement = name;
    rows.push({ kind: 'movement', key: `movement:${stream.jobId}:${markers++}`, movement: name });
  };
  const shown = stream.turns.flatMap((turn, index) => (visible(turn) ? [{ turn, index }] : []));
  shown.forEach(({ turn, index }, i) => {
    mark(turn.movement);
    const view = turnView(turn);
    const parts = turnParts(view.text);
    parts.forEach((text, k) => {
      const turnEnd = k === parts.length - 1;
      rows.push({
        kind: 'turn',
        key: `turn:${stream.jobId}:${index}:${k}`,
        jobId: stream.jobId,
        turn,
        text,
        toolCalls: turnEnd ? view.toolCalls : NO_CALLS,
        first: i === 0 && k === 0,
        turnStart: k === 0,
        turnEnd,
        last: i === shown.length - 1 && turnEnd,
      });
    });
  });
  mark(stream.movement);
  return rows;
}

// ---- height estimates ------------------------------------------------------------------------------------------

/** Characters of body text per rendered line at the feed's usual width; a guess, corrected once a row is measured. */
const CHARS_PER_LINE = 90;
const LINE_PX = 20;
/** Row padding, message border and padding, the header line. */
const MESSAGE_CHROME_PX = 12 + 18 + 24;
/** A fenced code block's bar and its box. */
const CODE_BLOCK_PX = 44;

/** Estimated rendered lines of Markdown text: wrapped lines, the blank lines between blocks, code blocks' chrome. */
function textPx(text: string): number {
  let lines = 0;
  let fences = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const length = end - start;
    if (text.startsWith('```', start)) fences++;
    lines += Math.max(1, Math.ceil(length / CHARS_PER_LINE));
    start = end + 1;
  }
  return lines * LINE_PX + Math.ceil(fences / 2) * CODE_BLOCK_PX;
}

export function estimateRowHeight(row: FeedRow): number {
  switch (row.kind) {
    case 'older':
      return 44;
    case 'comment':
      return MESSAGE_CHROME_PX + textPx(row.comment.body);
    case 'invoke':
      return 36;
    case 'movement':
      return 32;
    case 'turn': {
      const { turn } = row;
      return (
        MESSAGE_CHROME_PX +
        (row.text ? textPx(row.text) : 0) +
        (row.turnStart && turn.reasoning ? LINE_PX : 0) +
        (row.turnStart && turn.discarded > 0 ? LINE_PX : 0) +
        row.toolCalls.length * 28
      );
    }
    default: {
      const unknown: never = row;
      throw new Error(`unknown feed row ${JSON.stringify(unknown)}`);
    }
  }
}

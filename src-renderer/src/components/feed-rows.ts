// The rows of the chat feed, in order: while older items are not loaded, a row that loads them; the persisted items —
// comments and the agent's recorded turns (steps), with the Invoke headers placed among them and a movement marker
// wherever the movement changes, and after a job's closing comment the files it changed — then what of the live
// generation is not recorded yet (stream-rows.ts). Each row has a stable key (the virtualized feed keeps measured
// heights by key; estimates for rows never measured are in feed-row-heights.ts).
import type { ChatStep, Comment, StepToolCall } from '../../../src-shared/entities';
import type { InvokeKind } from '../../../src-shared/events';
import { type ChatItem, isStep } from '../store/chat-items';
import { CLOSING_KINDS, type StreamToolCall, type StreamTurn } from '../store/job-stream';
import { readPartialStringField } from '../store/partial-json';
import { COMPLETE_TOOL } from '../store/stream-answer';
import { foldErrorRows } from './error-rows';
import { type ChangedFile, filesChanged } from './files-changed';
import { splitBlocks } from './Markdown';
import { stoppedInPlace } from './stopped-rows';

/** An Invoke of the task (from its usage), with its header text ("Send #2", "Notify"). */
export interface FeedInvoke {
  seq: number;
  kind: InvokeKind;
  jobId: string;
  ts: string;
  label: string;
  /** The N of a UserSend ("Send #N"), by which it is rewound or forked; null for the other kinds. */
  send: number | null;
}

export type FeedRow =
  /** Above the comments loaded while older ones exist: loads them (or says they are loading). */
  | { kind: 'older'; key: string; count: number }
  | { kind: 'comment'; key: string; comment: Comment }
  | {
      kind: 'step';
      key: string;
      step: ChatStep;
      /** This row's part of the step's text (a long one is cut into parts, see turnParts). */
      text: string;
      /** The step's calls to show, on its last part; empty on the others. */
      toolCalls: readonly StepToolCall[];
      turnStart: boolean;
      turnEnd: boolean;
      /** Recorded after the person stopped its job: the text is where the stop cut it (stopped-rows.ts). */
      stopped: boolean;
    }
  | { kind: 'invoke'; key: string; invoke: FeedInvoke }
  | {
      kind: 'files';
      key: string;
      jobId: string;
      files: readonly ChangedFile[];
      /** The job may have steps before the loaded ones, not counted. */
      partial: boolean;
    }
  | { kind: 'movement'; key: string; movement: string }
  /** After a rewound Invoke's header: its rows are folded (not `open`) or shown below it (rewound-rows.ts). */
  | { kind: 'rewound'; key: string; seq: number; count: number; open: boolean }
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
      /** Delegate calls deep: a sub-agent's turn (> 0) shows inside the call before it. */
      depth: number;
      /** The job was stopped while this turn streamed: it stays, marked so, until its step replaces it. */
      stopped: boolean;
    };

/**
 * The items with each Invoke's header before the item that started it: the first item of the Invoke's job (the
 * instruction, the follow-up comment, the answer), or, for a job with no item yet or a later Invoke of the same job,
 * the first item written after it. Headers never go before an earlier header. A movement marker goes before each of
 * the job's own steps (not a sub-agent's) that ran in another movement than the one before.
 *
 * `olderCount` items before these are not loaded (the feed loads the latest page first). A header that belongs among
 * them is left out until they are loaded, rather than piled up above the first item loaded: an Invoke before the
 * first item loaded, unless its job's first item is loaded. Only the job of the first items loaded can have items on
 * both sides of that boundary (a task's jobs run one after another), so for that job the loaded item is trusted only
 * when the Invoke came after the boundary. (An Invoke placed by its time that falls between the last item not loaded
 * and the first loaded cannot be told from an earlier one: its header shows once the page before is loaded.)
 *
 * A job's "Files changed" block goes after its last closing comment loaded (its result, question or error; for a job
 * in `cancelled`, its last system comment, which says so), listing what its loaded steps wrote or edited. The note
 * of a stop follows the steps its job recorded once stopped, which are marked so (stopped-rows.ts).
 */
export function itemRows(
  loaded: readonly ChatItem[],
  invokes: readonly FeedInvoke[],
  olderCount = 0,
  cancelled: ReadonlySet<string> = NO_JOBS,
  /** The key of the streamed turn a step replaced, when it was seen streaming (see streamedKeys). */
  keyOf: (stepId: string) => string | undefined = NO_KEYS,
): FeedRow[] {
  const rows: FeedRow[] = olderCount > 0 ? [{ kind: 'older', key: OLDER_KEY, count: olderCount }] : [];
  const { items, stopped } = stoppedInPlace(loaded);
  const headers = headersAt(items, invokes, olderCount);
  const closed = closedJobs(items);
  const ends = jobEnds(items, cancelled);
  const stepsOf = ends.size > 0 ? stepsByJob(items) : new Map<string, ChatStep[]>();
  // Only the job of the first items loaded can have steps before them (a task's jobs run one after another).
  const straddling = olderCount > 0 ? items.find((c) => c.jobId)?.jobId : undefined;
  let movement: string | null = null;
  const pushHeaders = (at: number) => {
    for (const invoke of headers.get(at) ?? []) rows.push({ kind: 'invoke', key: `invoke:${invoke.seq}`, invoke });
  };
  items.forEach((item, i) => {
    pushHeaders(i);
    if (!isStep(item)) {
      rows.push(commentRow(item));
      const ended = ends.get(i);
      const files = ended === undefined ? null : filesRow(ended, stepsOf.get(ended) ?? [], ended === straddling);
      if (files) rows.push(files);
      return;
    }
    if (item.depth === 0 && item.movement !== null && item.movement !== movement) {
      movement = item.movement;
      rows.push({ kind: 'movement', key: `movement:${item.id}`, movement });
    }
    rows.push(...stepRows(item, closed.has(item.jobId), keyOf(item.id) ?? item.id, stopped.has(item.id)));
  });
  pushHeaders(items.length);
  return foldErrorRows(rows);
}

/** Where each Invoke's header goes: before the item at that index (see itemRows). */
function headersAt(
  items: readonly ChatItem[],
  invokes: readonly FeedInvoke[],
  olderCount: number,
): Map<number, FeedInvoke[]> {
  const headers = new Map<number, FeedInvoke[]>();
  if (invokes.length === 0) return headers;
  const firstOfJob = new Map<string, number>();
  items.forEach((c, i) => {
    if (c.jobId && !firstOfJob.has(c.jobId)) firstOfJob.set(c.jobId, i);
  });
  const boundary = olderCount > 0 ? items[0]?.createdAt : undefined;
  const straddling = boundary === undefined ? undefined : items.find((c) => c.jobId)?.jobId;
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
    const at = Math.max(floor, ofJob ?? firstAtOrAfter(items, invoke.ts));
    floor = at;
    headers.set(at, [...(headers.get(at) ?? []), invoke]);
  }
  return headers;
}

/** Jobs whose result, question or error comment is loaded: that comment is their answer, so their steps omit it. */
function closedJobs(items: readonly ChatItem[]): Set<string> {
  const jobs = new Set<string>();
  for (const item of items) {
    if (!isStep(item) && item.jobId && CLOSING_KINDS.includes(item.kind)) jobs.add(item.jobId);
  }
  return jobs;
}

const NO_JOBS: ReadonlySet<string> = new Set();

/** Where each job's files block goes: after the item at that index (see itemRows). */
function jobEnds(items: readonly ChatItem[], cancelled: ReadonlySet<string>): Map<number, string> {
  const last = new Map<string, number>();
  items.forEach((item, i) => {
    if (isStep(item) || !item.jobId) return;
    const closing = CLOSING_KINDS.includes(item.kind) || (cancelled.has(item.jobId) && item.author === 'system');
    if (closing) last.set(item.jobId, i);
  });
  return new Map([...last].map(([jobId, i]) => [i, jobId]));
}

function stepsByJob(items: readonly ChatItem[]): Map<string, ChatStep[]> {
  const byJob = new Map<string, ChatStep[]>();
  for (const item of items) {
    if (!isStep(item)) continue;
    const steps = byJob.get(item.jobId);
    if (steps) steps.push(item);
    else byJob.set(item.jobId, [item]);
  }
  return byJob;
}

/** The files row of a job's loaded steps, keyed by its first one: the same object while its steps are the same. */
const FILES_ROWS = new WeakMap<ChatStep, { steps: readonly ChatStep[]; partial: boolean; row: FeedRow | null }>();

function filesRow(jobId: string, steps: readonly ChatStep[], partial: boolean): FeedRow | null {
  const first = steps[0];
  if (!first) return null;
  const known = FILES_ROWS.get(first);
  if (known && known.partial === partial && sameItems(known.steps, steps)) return known.row;
  const files = filesChanged(steps);
  const row: FeedRow | null = files.length > 0 ? { kind: 'files', key: `files:${jobId}`, jobId, files, partial } : null;
  FILES_ROWS.set(first, { steps, partial, row });
  return row;
}

const sameItems = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The engine's tool that moves to another movement: the marker shows it. */
const TRANSITION_TOOL = 'transition';

/**
 * What a step shows: its text, then — until the job's closing comment is loaded — the message of its `complete` call
 * as the answer, and its other calls (a `complete` the engine refused stays, with the reason). Worked out once per
 * step object (a step changes by being replaced).
 */
export function stepView(step: ChatStep, closed: boolean): { text: string; toolCalls: readonly StepToolCall[] } {
  const answers = step.toolCalls.filter((c) => c.name === COMPLETE_TOOL && c.result?.ok !== false);
  const texts = [
    step.text.trim(),
    ...(closed ? [] : answers.map((c) => readPartialStringField(c.arguments, 'message') ?? '')),
  ];
  return {
    text: texts.filter((t) => t.length > 0).join('\n\n'),
    toolCalls: step.toolCalls.filter((c) => c.name !== TRANSITION_TOOL && !answers.includes(c)),
  };
}

const NO_KEYS = () => undefined;

const STEP_ROWS = new WeakMap<ChatStep, { closed: boolean; key: string; stopped: boolean; rows: FeedRow[] }>();

/**
 * A step's rows (one per part of its text); none when it has nothing to show. The same objects while it is. `key`:
 * the step's id, or the key of the streamed turn it replaced, so its rows keep that turn's DOM and measured heights.
 */
function stepRows(step: ChatStep, closed: boolean, key: string, stopped: boolean): FeedRow[] {
  const known = STEP_ROWS.get(step);
  if (known && known.closed === closed && known.key === key && known.stopped === stopped) return known.rows;
  const view = stepView(step, closed);
  const rows: FeedRow[] = [];
  if (view.text || step.reasoning || view.toolCalls.length > 0 || step.error) {
    const parts = turnParts(view.text);
    parts.forEach((text, k) => {
      const turnEnd = k === parts.length - 1;
      rows.push({
        kind: 'step',
        key: key === step.id ? (k === 0 ? step.id : `${step.id}:${k}`) : `${key}:${k}`,
        step,
        text,
        toolCalls: turnEnd ? view.toolCalls : NO_STEP_CALLS,
        turnStart: k === 0,
        turnEnd,
        stopped: stopped && turnEnd,
      });
    });
  }
  STEP_ROWS.set(step, { closed, key, stopped, rows });
  return rows;
}

const NO_STEP_CALLS: readonly StepToolCall[] = [];

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

/** Index of the first item created at or after `ts` (items are oldest first); their count when none is. */
function firstAtOrAfter(items: readonly ChatItem[], ts: string): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((items[mid] as ChatItem).createdAt < ts) lo = mid + 1;
    else hi = mid;
  }
  return lo;
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

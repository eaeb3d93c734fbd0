// Pages of a task's chat: its comments and its recorded AgentTurns (steps, read from log_entries) in one order, the
// latest page first and earlier pages before an item. Items are ordered by time; within one millisecond a person's
// comment comes before the agent's turn it started, and the agent's or the system's comments (a question, the
// result, an error) after the turn that led to them. Each side is read backwards along its own index from the
// anchor, so a page costs its own rows whatever the task's length.

import { z } from 'zod';
import {
  type ChatStep,
  type Comment,
  STEP_ID_PREFIX,
  type StepBody,
  type StepToolCall,
  stepId,
  ToolCallDenial,
  type ToolCallResult,
  ToolResultImage,
} from '../../../src-shared/entities';
import { iso } from '../ids';
import { type Dialect, dialectOf, jsonValues, type SqlDatabase } from '../sql';
import { type CommentRow, rowToComment } from './comments';

export interface ChatPage {
  comments: Comment[];
  steps: ChatStep[];
  /** How many of the task's comments and steps are older than the page. */
  olderCount: number;
}

export { STEP_ID_PREFIX, type StepBody, stepId } from '../../../src-shared/entities';

/** Where an item sits in the chat's order: its time, its rank within the millisecond, its rowid. */
interface Position {
  ts: number;
  rank: number;
  rowid: number;
}

/** A person's comment, the agent's turn, then the agent's and the system's comments (see the file comment). */
const COMMENT_RANK = "CASE author WHEN 'user' THEN 0 ELSE 2 END";
const STEP_RANK = 1;

/** A ToolTurn entry's body; `ok` is missing on entries written before it was recorded. */
interface ToolTurnBody {
  tool_call_id: string;
  result: string;
  chars: number;
  ok?: boolean;
  /** What the person sees instead of `result` (a write's whole diff), when the tool gave one. */
  display?: string;
  /** The call was denied (see ToolCallDenial); read back only when it has that shape. */
  denial?: unknown;
  /** The images the tool returned, for the person; read back only when they have the shape. */
  images?: unknown;
}

interface StepRow {
  seq: number;
  task_id: string;
  job_id: string;
  ts: number;
  body: string;
}

type PagedComment = CommentRow & { rowid: number; rank: number };

const BEFORE_COMMENT = `(created_at < @ts OR (created_at = @ts AND (${COMMENT_RANK}, rowid) < (@rank, @rowid)))`;
const BEFORE_STEP = `(ts < @ts OR (ts = @ts AND (${STEP_RANK}, seq) < (@rank, @rowid)))`;
const STEPS = "task_id = @taskId AND kind = 'AgentTurn' AND body IS NOT NULL";

/** The statements of a dialect. */
const chatSql = (dialect: Dialect) => ({
  commentsBefore: `SELECT rowid, ${COMMENT_RANK} AS rank, * FROM comments WHERE task_id = @taskId AND ${BEFORE_COMMENT}
    ORDER BY created_at DESC, rank DESC, rowid DESC LIMIT @limit`,
  stepsBefore: `SELECT seq, task_id, job_id, ts, body FROM log_entries WHERE ${STEPS} AND ${BEFORE_STEP}
    ORDER BY ts DESC, seq DESC LIMIT @limit`,
  countCommentsBefore: `SELECT count(*) FROM comments WHERE task_id = @taskId AND ${BEFORE_COMMENT}`,
  countStepsBefore: `SELECT count(*) FROM log_entries WHERE ${STEPS} AND ${BEFORE_STEP}`,
  // The answers and LlmCalls of a page's steps: the entries that point at one of them.
  ofTurns: `SELECT agent_turn_seq, kind, body, prompt_tokens, completion_tokens, cached_prompt_tokens FROM log_entries
    WHERE agent_turn_seq IN (SELECT value FROM ${jsonValues(dialect, '@seqs', 'bigint')}) ORDER BY seq`,
});

/** SQLite's statements, exported for the test that checks their query plans. */
export const CHAT_SQL = chatSql('sqlite');

type PageParams = { taskId: string } & Position;

export function createChatPagesRepo(db: SqlDatabase) {
  const CHAT_SQL = chatSql(dialectOf(db));
  const commentsBefore = db.prepare<PageParams & { limit: number }, PagedComment>(CHAT_SQL.commentsBefore);
  const stepsBefore = db.prepare<PageParams & { limit: number }, StepRow>(CHAT_SQL.stepsBefore);
  const countCommentsBefore = db.prepare<PageParams, number>(CHAT_SQL.countCommentsBefore).pluck();
  const countStepsBefore = db.prepare<PageParams, number>(CHAT_SQL.countStepsBefore).pluck();
  const commentAnchor = db.prepare<[string, string], Position>(
    `SELECT created_at AS ts, ${COMMENT_RANK} AS rank, rowid FROM comments WHERE id = ? AND task_id = ?`,
  );
  const stepAnchor = db.prepare<[number, string], { ts: number }>(
    `SELECT ts FROM log_entries WHERE seq = ? AND task_id = ? AND kind = 'AgentTurn' AND body IS NOT NULL`,
  );
  const oneStep = db.prepare<[number], StepRow>(
    `SELECT seq, task_id, job_id, ts, body FROM log_entries WHERE seq = ? AND kind = 'AgentTurn' AND body IS NOT NULL`,
  );
  const ofTurns = db.prepare<
    { seqs: string },
    {
      agent_turn_seq: number;
      kind: 'ToolTurn' | 'LlmCall';
      body: string | null;
      prompt_tokens: number | null;
      completion_tokens: number | null;
      cached_prompt_tokens: number | null;
    }
  >(CHAT_SQL.ofTurns);

  /** The steps of `rows` with their answers and usage. */
  const toSteps = (rows: StepRow[]): ChatStep[] => {
    if (rows.length === 0) return [];
    const steps = new Map(rows.map((r) => [r.seq, toStep(r)]));
    for (const e of ofTurns.all({ seqs: JSON.stringify([...steps.keys()]) })) {
      const step = steps.get(e.agent_turn_seq);
      if (!step) continue;
      if (e.kind === 'ToolTurn') {
        if (e.body) answerStep(step, JSON.parse(e.body) as ToolTurnBody);
        continue;
      }
      step.usage.llmCalls++;
      step.usage.promptTokens += e.prompt_tokens ?? 0;
      step.usage.completionTokens += e.completion_tokens ?? 0;
      step.usage.cachedPromptTokens += e.cached_prompt_tokens ?? 0;
    }
    return [...steps.values()];
  };

  /** Up to `limit` items before `at` (all when null), oldest first, with the count of older ones. */
  const pageBefore = (taskId: string, at: Position, limit: number): ChatPage => {
    const params = { taskId, ...at, limit };
    const comments = commentsBefore
      .all(params)
      .map((r) => ({ at: { ts: r.created_at, rank: r.rank, rowid: r.rowid }, r }));
    const steps = stepsBefore.all(params).map((r) => ({ at: { ts: r.ts, rank: STEP_RANK, rowid: r.seq }, r }));
    // Newest first from both sides; the page is the `limit` newest of the two.
    const taken = { comments: 0, steps: 0 };
    let oldest: Position | null = null;
    while (taken.comments + taken.steps < limit) {
      const c = comments[taken.comments];
      const s = steps[taken.steps];
      if (!c && !s) break;
      if (c && (!s || compare(c.at, s.at) > 0)) {
        oldest = c.at;
        taken.comments++;
      } else if (s) {
        oldest = s.at;
        taken.steps++;
      }
    }
    const olderCount = oldest
      ? (countCommentsBefore.get({ taskId, ...oldest }) ?? 0) + (countStepsBefore.get({ taskId, ...oldest }) ?? 0)
      : 0;
    return {
      comments: comments
        .slice(0, taken.comments)
        .reverse()
        .map(({ r }) => rowToComment(r)),
      steps: toSteps(
        steps
          .slice(0, taken.steps)
          .reverse()
          .map(({ r }) => r),
      ),
      olderCount,
    };
  };
  // Each page is read in one transaction, so its count agrees with its rows while another connection writes.
  const latest = db.transaction((taskId: string, limit: number) => pageBefore(taskId, END, limit));
  const before_ = db.transaction((taskId: string, itemId: string, limit: number): ChatPage | null => {
    const at = anchor(taskId, itemId);
    return at ? pageBefore(taskId, at, limit) : null;
  });

  function anchor(taskId: string, itemId: string): Position | null {
    if (itemId.startsWith(STEP_ID_PREFIX)) {
      const seq = Number(itemId.slice(STEP_ID_PREFIX.length));
      const row = Number.isSafeInteger(seq) ? stepAnchor.get(seq, taskId) : undefined;
      return row ? { ts: row.ts, rank: STEP_RANK, rowid: seq } : null;
    }
    return commentAnchor.get(itemId, taskId) ?? null;
  }

  return {
    /** The task's latest `limit` comments and steps together, oldest first, with the count of older ones. */
    latest(taskId: string, limit: number): ChatPage {
      return latest(taskId, limit);
    },
    /**
     * Up to `limit` items just before `itemId` (a comment's id or a step's), oldest first; null when the task has no
     * such item.
     */
    before(taskId: string, itemId: string, limit: number): ChatPage | null {
      return before_(taskId, itemId, limit);
    },
    /** One step as recorded now, with its answers and usage; null for an unknown seq or an entry without content. */
    step(seq: number): ChatStep | null {
      const row = oneStep.get(seq);
      return row ? (toSteps([row])[0] ?? null) : null;
    },
  };
}
export type ChatPagesRepo = ReturnType<typeof createChatPagesRepo>;

/** After every item: the anchor of the latest page. */
const END: Position = { ts: Number.MAX_SAFE_INTEGER, rank: 0, rowid: 0 };

const compare = (a: Position, b: Position) => a.ts - b.ts || a.rank - b.rank || a.rowid - b.rowid;

function toStep(row: StepRow): ChatStep {
  const body = JSON.parse(row.body) as StepBody;
  return {
    id: stepId(row.seq),
    seq: row.seq,
    taskId: row.task_id,
    jobId: row.job_id,
    createdAt: iso(row.ts),
    movement: body.movement ?? null,
    depth: body.depth ?? 0,
    text: body.text ?? '',
    reasoning: body.reasoning ?? '',
    toolCalls: (body.toolCalls ?? []).map((c): StepToolCall => ({ ...c, result: null })),
    error: body.error ?? null,
    usage: { llmCalls: 0, promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0 },
  };
}

/** The result of a ToolTurn body as the step shows it. */
export function toolCallResult(body: ToolTurnBody): ToolCallResult {
  const result: ToolCallResult = {
    ok: body.ok ?? !body.result.startsWith('Error'),
    content: body.result,
    chars: body.chars,
  };
  if (typeof body.display === 'string') result.display = body.display;
  const denial = ToolCallDenial.safeParse(body.denial);
  if (denial.success) result.denial = denial.data;
  const images = z.array(ToolResultImage).safeParse(body.images);
  if (body.images !== undefined && images.success) result.images = images.data;
  return result;
}

function answerStep(step: ChatStep, body: ToolTurnBody): void {
  const call = step.toolCalls.find((c) => c.id === body.tool_call_id);
  if (call) call.result = toolCallResult(body);
}

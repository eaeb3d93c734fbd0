// Repository of log_entries: the flat Invoke/Turn/LlmCall log (one seq for all), and the usage roll-up
// LlmCall → AgentTurn → Invoke → job → task.

import type { LlmCallRecord, LogKind, UsageSums } from '../../../src-shared/entities';
import type { MaestroEvent } from '../../../src-shared/events';
import { iso } from '../ids';
import { dialectOf, jsonField, jsonFieldIsString, prepareInsert, type SqlDatabase } from '../sql';
import type { InvokeKind } from './jobs';

export type { LogKind, UsageSums };

export interface LlmCallRow {
  seq: number;
  agentTurnSeq: number;
  attempt: number;
  outcome: string;
  latencyMs: number | null;
  ttftMs: number | null;
  usage: UsageSums;
  /** The profile and model the call was made with (null: recorded before issue 23, so no price applies). */
  profile: string | null;
  model: string | null;
}

export interface AgentTurnUsage {
  seq: number;
  usage: UsageSums;
  llmCalls: LlmCallRow[];
}

export interface InvokeUsage {
  seq: number;
  kind: InvokeKind;
  jobId: string;
  ts: string;
  usage: UsageSums;
  agentTurns: AgentTurnUsage[];
}

export interface LogEntry {
  seq: number;
  taskId: string;
  jobId: string;
  kind: LogKind;
  invokeSeq: number | null;
  agentTurnSeq: number | null;
  ts: string;
  invokeKind: InvokeKind | null;
  body: unknown;
}

interface EntryRow {
  seq: number;
  task_id: string;
  job_id: string;
  kind: LogKind;
  invoke_seq: number | null;
  agent_turn_seq: number | null;
  ts: number;
  invoke_kind: InvokeKind | null;
  body: string | null;
  attempt: number | null;
  outcome: string | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  cached_prompt_tokens: number | null;
  latency_ms: number | null;
  ttft_ms: number | null;
}

/** An entry of the usage roll-up: LlmCalls carry what priced them. */
interface UsageEntryRow extends EntryRow {
  call_profile: string | null;
  call_model: string | null;
}

export interface NewLogEntry {
  taskId: string;
  jobId: string;
  kind: LogKind;
  invokeSeq?: number | null;
  agentTurnSeq?: number | null;
  invokeKind?: InvokeKind | null;
  body?: unknown;
  llmCall?: LlmCallRecord;
}

const zero = (): UsageSums => ({ llmCalls: 0, promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0 });
const add = (sum: UsageSums, u: UsageSums) => {
  sum.llmCalls += u.llmCalls;
  sum.promptTokens += u.promptTokens;
  sum.completionTokens += u.completionTokens;
  sum.cachedPromptTokens += u.cachedPromptTokens;
};

export function createLogEntriesRepo(db: SqlDatabase) {
  const dialect = dialectOf(db);
  // Positional parameters: the cheapest insert for the hot loop.
  const insert = prepareInsert(
    db,
    `INSERT INTO log_entries (task_id, job_id, kind, invoke_seq, agent_turn_seq, ts, invoke_kind, body, attempt, outcome,
       prompt_tokens, completion_tokens, cached_prompt_tokens, latency_ms, ttft_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    'seq',
  );
  const byTask = db.prepare<[string], EntryRow>('SELECT * FROM log_entries WHERE task_id = ? ORDER BY seq');
  const lastInvoke = db.prepare<[string], { seq: number }>(
    `SELECT seq FROM log_entries WHERE task_id = ? AND kind = 'Invoke' ORDER BY seq DESC LIMIT 1`,
  );
  const invokes = db.prepare<[string], { seq: number; job_id: string; invoke_kind: string | null }>(
    `SELECT seq, job_id, invoke_kind FROM log_entries WHERE task_id = ? AND kind = 'Invoke' ORDER BY seq`,
  );
  const lastSeq = db.prepare<[string], { seq: number }>(
    'SELECT seq FROM log_entries WHERE task_id = ? ORDER BY seq DESC LIMIT 1',
  );
  const jobUsageRow = db.prepare<[string, string], UsageSums>(
    `SELECT count(*) AS "llmCalls", coalesce(sum(prompt_tokens), 0) AS "promptTokens",
       coalesce(sum(completion_tokens), 0) AS "completionTokens", coalesce(sum(cached_prompt_tokens), 0) AS "cachedPromptTokens"
     FROM log_entries WHERE task_id = ? AND job_id = ? AND kind = 'LlmCall'`,
  );
  const turnOfCall = db.prepare<[string, string, string], { seq: number }>(
    `SELECT seq FROM log_entries WHERE task_id = ? AND job_id = ? AND kind = 'AgentTurn' AND body IS NOT NULL
       AND EXISTS (${
         dialect === 'sqlite'
           ? `SELECT 1 FROM json_each(body, '$.toolCalls') WHERE json_extract(value, '$.id') = ?`
           : `SELECT 1 FROM json_array_elements(body::json -> 'toolCalls') AS call WHERE call ->> 'id' = ?`
       })
     ORDER BY seq DESC LIMIT 1`,
  );
  const llmCallRows = db.prepare<[string, number, number], EntryRow>(
    `SELECT * FROM log_entries WHERE task_id = ? AND kind = 'LlmCall' AND ts >= ? ORDER BY seq DESC LIMIT ?`,
  );
  const lastPricedCall = db.prepare<[string], { profile: string; model: string; prompt_tokens: number }>(
    `SELECT ${jsonField(dialect, 'body', 'profile')} AS profile, ${jsonField(dialect, 'body', 'model')} AS model,
       prompt_tokens FROM log_entries WHERE task_id = ? AND kind = 'LlmCall' AND prompt_tokens > 0
       AND ${jsonFieldIsString(dialect, 'body', 'profile')} AND ${jsonFieldIsString(dialect, 'body', 'model')}
     ORDER BY seq DESC LIMIT 1`,
  );
  const usageRows = db.prepare<[string], UsageEntryRow>(
    `SELECT *,
       CASE WHEN kind = 'LlmCall' THEN ${jsonField(dialect, 'body', 'profile')} END AS call_profile,
       CASE WHEN kind = 'LlmCall' THEN ${jsonField(dialect, 'body', 'model')} END AS call_model
     FROM log_entries WHERE task_id = ? AND kind IN ('Invoke', 'AgentTurn', 'LlmCall') ORDER BY seq`,
  );

  return {
    append(entry: NewLogEntry, now = Date.now()): number {
      const c = entry.llmCall;
      return insert(
        entry.taskId,
        entry.jobId,
        entry.kind,
        entry.invokeSeq ?? null,
        entry.agentTurnSeq ?? null,
        now,
        entry.invokeKind ?? null,
        entry.body === undefined ? null : JSON.stringify(entry.body),
        c?.attempt ?? null,
        c?.outcome ?? null,
        c?.promptTokens ?? null,
        c?.completionTokens ?? null,
        c?.cachedPromptTokens ?? null,
        c?.latencyMs ?? null,
        c?.ttftMs ?? null,
      );
    },
    /** The seq of the job's latest AgentTurn that made the call `callId`; null when none recorded it. */
    turnOfCall(taskId: string, jobId: string, callId: string): number | null {
      return turnOfCall.get(taskId, jobId, callId)?.seq ?? null;
    },
    /** The task's Invoke markers, oldest first: where each Send (and every other idle → active start) began. */
    invokes(taskId: string): { seq: number; jobId: string; kind: InvokeKind }[] {
      return invokes.all(taskId).map((r) => ({ seq: r.seq, jobId: r.job_id, kind: r.invoke_kind as InvokeKind }));
    },
    /** The task's last seq (any entry), or null when it has none. */
    lastSeq(taskId: string): number | null {
      return lastSeq.get(taskId)?.seq ?? null;
    },
    lastInvokeSeq(taskId: string): number | null {
      return lastInvoke.get(taskId)?.seq ?? null;
    },
    listForTask(taskId: string): LogEntry[] {
      return byTask.all(taskId).map((r) => ({
        seq: r.seq,
        taskId: r.task_id,
        jobId: r.job_id,
        kind: r.kind,
        invokeSeq: r.invoke_seq,
        agentTurnSeq: r.agent_turn_seq,
        ts: iso(r.ts),
        invokeKind: r.invoke_kind,
        body: r.body === null ? null : JSON.parse(r.body),
      }));
    },
    /**
     * The task's latest `limit` LlmCalls since `since` (ms), oldest first, as the LlmCallEnd events they were sent as
     * (seq 0: those events are not stored), for a timeline opened after they were sent.
     */
    llmCallEvents(taskId: string, since: number, limit: number): Extract<MaestroEvent, { type: 'LlmCallEnd' }>[] {
      return llmCallRows
        .all(taskId, since, limit)
        .reverse()
        .map((r) => {
          const body = (r.body === null ? {} : JSON.parse(r.body)) as { llmCallCount?: number };
          const usage: UsageSums = {
            llmCalls: 1,
            promptTokens: r.prompt_tokens ?? 0,
            completionTokens: r.completion_tokens ?? 0,
            cachedPromptTokens: r.cached_prompt_tokens ?? 0,
          };
          return {
            type: 'LlmCallEnd',
            seq: 0,
            ts: iso(r.ts),
            taskId: r.task_id,
            jobId: r.job_id,
            llmCallCount: body.llmCallCount ?? 0,
            attempt: r.attempt ?? 1,
            outcome: r.outcome ?? 'ok',
            latencyMs: r.latency_ms ?? 0,
            ttftMs: r.ttft_ms,
            usage,
            cachedPromptTokens: usage.cachedPromptTokens,
          };
        });
    },
    /** The task's last LlmCall that reported a prompt, with the profile and model it was sent to. */
    lastPricedCall(taskId: string): { profile: string; model: string; promptTokens: number } | undefined {
      const row = lastPricedCall.get(taskId);
      return row ? { profile: row.profile, model: row.model, promptTokens: row.prompt_tokens } : undefined;
    },
    /** One job's usage: the sums over its LlmCalls. */
    jobUsage(taskId: string, jobId: string): UsageSums {
      return jobUsageRow.get(taskId, jobId) ?? zero();
    },
    /** Usage per Invoke → AgentTurn → LlmCall, with totals per job and for the task. */
    usage(taskId: string): { total: UsageSums; jobs: { jobId: string; usage: UsageSums }[]; invokes: InvokeUsage[] } {
      const total = zero();
      const jobs = new Map<string, UsageSums>();
      const invokes: InvokeUsage[] = [];
      const invokeBySeq = new Map<number, InvokeUsage>();
      const turnBySeq = new Map<number, AgentTurnUsage>();
      for (const r of usageRows.all(taskId)) {
        if (r.kind === 'Invoke') {
          const inv: InvokeUsage = {
            seq: r.seq,
            kind: r.invoke_kind as InvokeKind,
            jobId: r.job_id,
            ts: iso(r.ts),
            usage: zero(),
            agentTurns: [],
          };
          invokes.push(inv);
          invokeBySeq.set(r.seq, inv);
        } else if (r.kind === 'AgentTurn') {
          const turn: AgentTurnUsage = { seq: r.seq, usage: zero(), llmCalls: [] };
          turnBySeq.set(r.seq, turn);
          if (r.invoke_seq !== null) invokeBySeq.get(r.invoke_seq)?.agentTurns.push(turn);
        } else {
          const usage: UsageSums = {
            llmCalls: 1,
            promptTokens: r.prompt_tokens ?? 0,
            completionTokens: r.completion_tokens ?? 0,
            cachedPromptTokens: r.cached_prompt_tokens ?? 0,
          };
          const call: LlmCallRow = {
            seq: r.seq,
            agentTurnSeq: r.agent_turn_seq as number,
            attempt: r.attempt ?? 1,
            outcome: r.outcome ?? 'ok',
            latencyMs: r.latency_ms,
            ttftMs: r.ttft_ms,
            usage,
            profile: typeof r.call_profile === 'string' ? r.call_profile : null,
            model: typeof r.call_model === 'string' ? r.call_model : null,
          };
          const turn = r.agent_turn_seq === null ? undefined : turnBySeq.get(r.agent_turn_seq);
          turn?.llmCalls.push(call);
          if (turn) add(turn.usage, usage);
          if (r.invoke_seq !== null) {
            const inv = invokeBySeq.get(r.invoke_seq);
            if (inv) add(inv.usage, usage);
          }
          const job = jobs.get(r.job_id) ?? zero();
          jobs.set(r.job_id, job);
          add(job, usage);
          add(total, usage);
        }
      }
      return { total, jobs: [...jobs].map(([jobId, usage]) => ({ jobId, usage })), invokes };
    },
  };
}
export type LogEntriesRepo = ReturnType<typeof createLogEntriesRepo>;

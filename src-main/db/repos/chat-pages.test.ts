// Pages of a task's chat (comments and recorded AgentTurns together): order, boundaries, counts, ties within a
// millisecond, each step's answers and usage, the indexes they read, and anchors that are unknown or another task's.
import { describe, expect, it } from 'vitest';
import { insertJob, insertTask, storeDialects, tempStore, useStoreDialect } from '../../../test-support/db';
import type { Store } from '../store';
import { CHAT_SQL, type StepBody } from './chat-pages';

const body = (text: string, calls: StepBody['toolCalls'] = []): StepBody => ({
  movement: 'work',
  depth: 0,
  text,
  reasoning: '',
  toolCalls: calls,
});

/** A task whose chat alternates a person's comment and an agent's step, `step` ms apart; returns ids in order. */
function seed(store: Store, count: number, step = 1): { taskId: string; jobId: string; ids: string[] } {
  const taskId = insertTask(store);
  const jobId = insertJob(store, taskId).id;
  const ids = store.transact(() =>
    Array.from({ length: count }, (_, i) => {
      const at = 1000 + i * step;
      if (i % 2 === 0) {
        return store.comments.insert({ taskId, jobId, author: 'user', kind: 'comment', body: `#${i}` }, at).id;
      }
      return `step:${store.logEntries.append({ taskId, jobId, kind: 'AgentTurn', body: body(`#${i}`) }, at)}`;
    }),
  );
  return { taskId, jobId, ids };
}

const idsOf = (page: { comments: { id: string; createdAt: string }[]; steps: { id: string; createdAt: string }[] }) =>
  [...page.comments, ...page.steps]
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
    .map((i) => i.id);

describe.each(storeDialects())('chat pages (%s)', (dialect) => {
  useStoreDialect(dialect);
  it('latest: the latest `limit` comments and steps together, oldest first, with the count of older ones', () => {
    const store = tempStore();
    const { taskId, ids } = seed(store, 12);
    const other = seed(store, 3);
    const latest = store.chatPages.latest(taskId, 5);
    expect(idsOf(latest)).toEqual(ids.slice(7));
    expect(latest.olderCount).toBe(7);
    expect(latest.steps.map((s) => s.text)).toEqual(['#7', '#9', '#11']);
    expect(store.chatPages.latest(taskId, 12).olderCount).toBe(0);
    expect(idsOf(store.chatPages.latest(other.taskId, 5))).toEqual(other.ids);
    expect(store.chatPages.latest('task_none', 5)).toEqual({ comments: [], steps: [], olderCount: 0 });
  });

  it('before walks back page by page to the first item, with nothing skipped or repeated', () => {
    const store = tempStore();
    const { taskId, ids } = seed(store, 23);
    let page = store.chatPages.latest(taskId, 5);
    const seen = idsOf(page);
    const counts = [page.olderCount];
    while (page.olderCount > 0) {
      page = store.chatPages.before(taskId, seen[0] as string, 5) as typeof page;
      seen.unshift(...idsOf(page));
      counts.push(page.olderCount);
    }
    expect(seen).toEqual(ids);
    expect(counts).toEqual([18, 13, 8, 3, 0]);
    expect(idsOf(store.chatPages.before(taskId, ids[3] as string, 5) as typeof page)).toEqual(ids.slice(0, 3));
    expect(store.chatPages.before(taskId, ids[0] as string, 5)).toEqual({ comments: [], steps: [], olderCount: 0 });
  });

  it('within one millisecond: a person’s comment, then the agent’s step, then the agent’s comment', () => {
    const store = tempStore();
    const taskId = insertTask(store);
    const jobId = insertJob(store, taskId).id;
    const at = 5000;
    const result = store.comments.insert({ taskId, jobId, author: 'agent', kind: 'result', body: 'done' }, at);
    const stepSeq = store.logEntries.append({ taskId, jobId, kind: 'AgentTurn', body: body('working') }, at);
    const ask = store.comments.insert({ taskId, jobId, author: 'user', kind: 'instruction', body: 'do' }, at);
    const order = [ask.id, `step:${stepSeq}`, result.id];
    const latest = store.chatPages.latest(taskId, 10);
    expect(latest.comments.map((c) => c.id)).toEqual([ask.id, result.id]);
    expect(latest.steps.map((s) => s.id)).toEqual([`step:${stepSeq}`]);
    // Paged one at a time, the same order.
    const seen: string[] = [];
    let page = store.chatPages.latest(taskId, 1);
    for (;;) {
      const [only] = [...page.comments, ...page.steps];
      if (!only) break;
      seen.unshift(only.id);
      page = store.chatPages.before(taskId, only.id, 1) as typeof page;
    }
    expect(seen).toEqual(order);
  });

  it('a step carries its tool calls with the answers recorded for them, and the usage of its LlmCalls', () => {
    const store = tempStore();
    const taskId = insertTask(store);
    const jobId = insertJob(store, taskId).id;
    const calls = [
      { id: 'c1', name: 'read_file', arguments: '{"path":"a"}' },
      { id: 'c2', name: 'run_command', arguments: '{"command":"ls"}' },
    ];
    const seq = store.logEntries.append({ taskId, jobId, kind: 'AgentTurn', body: body('looking', calls) });
    const llmCall = (attempt: number, prompt: number) =>
      store.logEntries.append({
        taskId,
        jobId,
        kind: 'LlmCall',
        agentTurnSeq: seq,
        body: {},
        llmCall: {
          attempt,
          outcome: 'ok',
          latencyMs: 1,
          ttftMs: 1,
          promptTokens: prompt,
          completionTokens: 3,
          cachedPromptTokens: 1,
        },
      });
    llmCall(1, 10);
    llmCall(2, 20);
    store.logEntries.append({
      taskId,
      jobId,
      kind: 'ToolTurn',
      agentTurnSeq: seq,
      body: { tool_call_id: 'c1', name: 'read_file', result: 'text', chars: 4, ok: true },
    });
    // An answer recorded before `ok` was: read from its text.
    store.logEntries.append({
      taskId,
      jobId,
      kind: 'ToolTurn',
      agentTurnSeq: seq,
      body: { tool_call_id: 'c2', name: 'run_command', result: 'Error: denied', chars: 13 },
    });
    const step = store.chatPages.step(seq);
    expect(step).toMatchObject({
      id: `step:${seq}`,
      text: 'looking',
      movement: 'work',
      depth: 0,
      error: null,
      toolCalls: [
        { id: 'c1', result: { ok: true, content: 'text', chars: 4 } },
        { id: 'c2', result: { ok: false, content: 'Error: denied', chars: 13 } },
      ],
      usage: { llmCalls: 2, promptTokens: 30, completionTokens: 6, cachedPromptTokens: 2 },
    });
    expect(store.chatPages.latest(taskId, 10).steps).toEqual([step]);
    expect(store.logEntries.turnOfCall(taskId, jobId, 'c2')).toBe(seq);
    expect(store.logEntries.turnOfCall(taskId, jobId, 'c9')).toBeNull();
  });

  it('AgentTurns recorded before steps had content are no items; unknown anchors have no page (null)', () => {
    const store = tempStore();
    const one = seed(store, 3);
    const two = seed(store, 3);
    const bare = store.logEntries.append({ taskId: one.taskId, jobId: one.jobId, kind: 'AgentTurn' });
    expect(idsOf(store.chatPages.latest(one.taskId, 10))).toEqual(one.ids);
    expect(store.chatPages.step(bare)).toBeNull();
    for (const itemId of ['cmt_missing', `step:${bare}`, 'step:abc', two.ids[2] as string, two.ids[1] as string]) {
      expect(store.chatPages.before(one.taskId, itemId, 5)).toBeNull();
    }
  });

  // SQLite's query plans; PostgreSQL's planner scans tables this small whatever the indexes.
  it.skipIf(dialect === 'postgres')('the pages read the tasks’ indexes: no scan of a table', () => {
    const store = tempStore();
    const plan = (sql: string) =>
      (
        store.db
          .prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .all({ taskId: 't', ts: 1, rank: 1, rowid: 1, limit: 5, seqs: '[1]' }) as { detail: string }[]
      )
        .map((r) => r.detail)
        .join(' | ');
    expect(plan(CHAT_SQL.commentsBefore)).toMatch(
      /comments USING INDEX comments_by_task \(task_id=\? AND created_at<\?\)/,
    );
    expect(plan(CHAT_SQL.countCommentsBefore)).toMatch(/comments USING (COVERING )?INDEX comments_by_task/);
    for (const sql of [CHAT_SQL.stepsBefore, CHAT_SQL.countStepsBefore]) {
      expect(plan(sql)).toMatch(/log_entries USING (COVERING )?INDEX log_entries_steps \(task_id=\? AND ts<\?\)/);
    }
    expect(plan(CHAT_SQL.stepsBefore)).not.toMatch(/TEMP B-TREE/);
    expect(plan(CHAT_SQL.ofTurns)).toMatch(/log_entries USING INDEX log_entries_by_turn \(agent_turn_seq=\?\)/);
    for (const sql of Object.values(CHAT_SQL)) expect(plan(sql)).not.toMatch(/SCAN (comments|log_entries)( |$)/);
  });
});

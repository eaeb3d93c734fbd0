// The activity timeline's pure parts: which events make rows, how the loaded list merges with live ones, the time
// spent in each job state, and the filter groups.
import { describe, expect, it } from 'vitest';
import type { Job } from '../../../src-shared/entities';
import type { MaestroEvent } from '../../../src-shared/events';
import { jobFixture } from '../test-fixtures';
import { type ActivityEvent, type ActivityKind, appendActivity, mergeActivity } from './activity';
import { formatDuration } from './activity-format';
import { type ActivityRow, activityRows, filterRows } from './activity-rows';

const at = (ms: number) => new Date(Date.UTC(2025, 0, 1) + ms).toISOString();
const base = (seq: number, ms: number) => ({ seq, ts: at(ms), taskId: 't1', jobId: 'j1' });

const job = (status: Job['status'], patch: Partial<Job> = {}): Job =>
  jobFixture({ id: 'j1', taskId: 't1', createdAt: at(0), updatedAt: at(0), status, attempt: 1, ...patch });

const changed = (seq: number, ms: number, status: Job['status'], patch: Partial<Job> = {}): MaestroEvent => ({
  ...base(seq, ms),
  type: 'job.changed',
  job: job(status, patch),
});

const tool = (seq: number, ms: number, ok = true): MaestroEvent => ({
  ...base(seq, ms),
  type: 'tool.finished',
  callId: `c${seq}`,
  name: 'list_dir',
  ok,
  preview: ok ? 'a.txt\nb/' : 'Error: no such folder',
});

const llmEnd = (ms: number, outcome = 'ok'): MaestroEvent => ({
  ...base(0, ms),
  type: 'LlmCallEnd',
  llmCallCount: 1,
  attempt: 2,
  outcome,
  latencyMs: 1234,
  ttftMs: 200,
  usage: { llmCalls: 1, promptTokens: 1000, completionTokens: 50, cachedPromptTokens: 800 },
  cachedPromptTokens: 800,
});

const delta = (ms: number): MaestroEvent => ({
  ...base(0, ms),
  type: 'stream.delta',
  text: 'x',
  reasoning: '',
  toolCalls: [],
});

function fold(events: MaestroEvent[]): readonly ActivityEvent[] {
  return events.reduce<readonly ActivityEvent[]>((list, e) => appendActivity(list, e), []);
}

describe('activity rows', () => {
  it('gives each job state the time to the next one, and merges repeated updates of a state', () => {
    const rows = activityRows(
      fold([
        changed(1, 0, 'queued'),
        changed(2, 500, 'running'),
        changed(3, 5_000, 'running', { heartbeatAt: at(5_000) }),
        changed(4, 12_800, 'succeeded', { result: 'Done.' }),
      ]),
    );
    expect(rows.map((r) => [r.title, r.durationMs])).toEqual([
      ['queued', 500],
      ['running', 12_300],
      ['succeeded', null],
    ]);
    expect(`${rows[1]?.title} ${formatDuration(rows[1]?.durationMs ?? 0)}`).toBe('running 12.3 s');
    expect(rows[2]?.detail).toBe('Done.');
  });

  it('says why a job waits, and when and why it retries', () => {
    const rows = activityRows(
      fold([
        changed(1, 0, 'running'),
        changed(2, 1_000, 'waiting_human', { waitReason: 'tool_request' }),
        changed(3, 2_000, 'retry', { attempt: 1, nextRetryAt: at(9_000), error: 'HTTP 503' }),
        changed(4, 9_000, 'running', { attempt: 2 }),
        changed(5, 9_500, 'failed', { attempt: 2, error: 'gave up' }),
      ]),
    );
    expect(rows[1]?.detail).toBe('for a tool approval');
    expect(rows[2]?.detail).toContain('attempt 2');
    expect(rows[2]?.detail).toContain('HTTP 503');
    expect(rows[2]?.error).toBe(true);
    expect(rows[3]?.detail).toBe('attempt 2');
    expect(rows.at(-1)).toMatchObject({ title: 'failed', error: true, detail: 'gave up', durationMs: null });
  });

  it('keeps the state durations of two jobs apart', () => {
    const other = (seq: number, ms: number, status: Job['status']): MaestroEvent => ({
      ...base(seq, ms),
      jobId: 'j2',
      type: 'job.changed',
      job: { ...job(status), id: 'j2' },
    });
    const rows = activityRows(
      fold([
        changed(1, 0, 'running'),
        other(2, 100, 'queued'),
        changed(3, 2_000, 'succeeded'),
        other(4, 2_100, 'running'),
      ]),
    );
    expect(rows.map((r) => r.durationMs)).toEqual([2_000, 2_000, null, null]);
  });

  it('shows tools, approvals, comments, prompt-guard actions and LlmCalls with their facts', () => {
    const rows = activityRows(
      fold([
        { ...base(1, 0), type: 'movement.entered', movement: 'work' },
        tool(2, 10),
        tool(3, 20, false),
        {
          ...base(4, 30),
          type: 'tool_request.changed',
          request: {
            id: 'r1',
            taskId: 't1',
            jobId: 'j1',
            callId: 'c',
            tool: 'run_command',
            summary: '$ ls',
            status: 'approved',
            scope: 'once',
            createdAt: at(0),
            decidedAt: at(30),
            denyReason: null,
          },
        },
        {
          ...base(5, 40),
          type: 'comment.created',
          comment: {
            id: 'm1',
            taskId: 't1',
            jobId: 'j1',
            author: 'system',
            kind: 'error',
            body: 'Boom',
            createdAt: at(40),
          },
        },
        {
          ...base(6, 50),
          type: 'prompt.guarded',
          outcome: 'rewrite',
          steps: ['trim'],
          tokensBefore: 9000,
          tokensAfter: 4000,
        },
        llmEnd(60),
      ]),
    );
    expect(rows.map((r) => [r.kind, r.title, r.status, r.error])).toEqual([
      ['job', 'Movement work', null, false],
      ['tool', 'list_dir', 'ok', false],
      ['tool', 'list_dir', 'failed', true],
      ['approval', 'Tool run_command approved once', 'approved', false],
      ['comment', 'MAESTRO · Error', 'error', true],
      ['llm', 'Prompt guard rewrite', 'rewrite', false],
      ['llm', 'LLM call #1', 'ok', false],
    ]);
    const call = rows.at(-1);
    expect(call?.live).toBe(true);
    expect(call?.llm).toMatchObject({ attempt: 2, latencyMs: 1234, promptTokens: 1000, cachedPromptTokens: 800 });
    expect(call?.detail).toContain('800 cached');
    expect(rows[5]?.detail).toBe('trim · 9000 → 4000 tokens');
  });
});

describe('merging the loaded list with the live stream', () => {
  it('keeps a persisted event once per seq and drops the stream deltas', () => {
    const list = fold([changed(1, 0, 'queued'), delta(5), changed(1, 0, 'queued'), tool(2, 10)]);
    expect(list.map((e) => e.seq)).toEqual([1, 2]);
  });

  it('puts loaded events before those that came live, without doubles, transient ones kept in time order', () => {
    const live = fold([tool(3, 30), llmEnd(35), changed(4, 40, 'succeeded')]);
    const merged = mergeActivity(live, [changed(1, 0, 'queued'), changed(2, 10, 'running'), tool(3, 30)]);
    expect(merged.map((e) => `${e.type}:${e.seq}`)).toEqual([
      'job.changed:1',
      'job.changed:2',
      'tool.finished:3',
      'LlmCallEnd:0',
      'job.changed:4',
    ]);
    expect(mergeActivity(merged, [changed(1, 0, 'queued')])).toEqual(merged);
  });

  it('places the LlmCalls the list rebuilt from the log by their time, each once even when it also came live', () => {
    const loadedCall = (ms: number, count: number): MaestroEvent =>
      ({ ...llmEnd(ms), llmCallCount: count }) as MaestroEvent;
    const live = fold([changed(3, 40, 'succeeded'), loadedCall(45, 2)]);
    const merged = mergeActivity(live, [
      changed(1, 0, 'queued'),
      loadedCall(5, 1),
      changed(2, 10, 'running'),
      loadedCall(46, 2),
    ]);
    expect(merged.map((e) => `${e.type}:${e.seq}:${e.ts}`)).toEqual([
      `job.changed:1:${base(1, 0).ts}`,
      `LlmCallEnd:0:${base(0, 5).ts}`,
      `job.changed:2:${base(2, 10).ts}`,
      `job.changed:3:${base(3, 40).ts}`,
      `LlmCallEnd:0:${base(0, 45).ts}`,
    ]);
  });

  it('orders persisted events by seq even when their times disagree', () => {
    const live = fold([llmEnd(1), changed(3, 5, 'queued')]);
    const created: MaestroEvent = { ...base(2, 9), type: 'movement.entered', movement: 'work' };
    const merged = mergeActivity(live, [changed(1, 0, 'queued'), created]);
    expect(merged.map((e) => `${e.type}:${e.seq}`)).toEqual([
      'job.changed:1',
      'LlmCallEnd:0',
      'movement.entered:2',
      'job.changed:3',
    ]);
  });
});

describe('filter', () => {
  const rows = activityRows(fold([changed(1, 0, 'running'), tool(2, 10), tool(3, 20, false), llmEnd(30)]));
  const only = (...kinds: ActivityKind[]) => filterRows(rows, new Set(kinds)).map((r) => r.key);

  it('shows the enabled groups only', () => {
    expect(only('job', 'llm', 'tool', 'approval', 'comment', 'error')).toEqual(['s1', 's2', 's3', 't3']);
    expect(only('job', 'llm')).toEqual(['s1', 't3']);
    expect(only('tool')).toEqual(['s2', 's3']);
  });

  it('a webhook delivery given up is a failed Notifications row, also under Errors', () => {
    const failed: MaestroEvent = {
      ...base(4, 40),
      type: 'webhook.failed',
      webhook: 'webhook #1 (https://hooks.example)',
      event: 'task.succeeded',
      attempts: 4,
      reason: 'HTTP 503',
    };
    const [row] = activityRows(fold([failed]));
    expect(row).toMatchObject({ kind: 'notification', error: true, status: 'failed' });
    expect(row?.title).toBe('webhook #1 (https://hooks.example) did not take task.succeeded');
    expect(row?.detail).toBe('HTTP 503 · given up after 4 attempt(s)');
    expect(filterRows([row as ActivityRow], new Set(['error']))).toHaveLength(1);
    expect(filterRows([row as ActivityRow], new Set(['job']))).toHaveLength(0);
  });

  it('shows failures under Errors even when their own group is hidden', () => {
    expect(only('error')).toEqual(['s3']);
    expect(only('job', 'error')).toEqual(['s1', 's3']);
  });
});

describe('formatDuration', () => {
  it('scales its unit', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(12_345)).toBe('12.3 s');
    expect(formatDuration(245_000)).toBe('4 m 05 s');
    expect(formatDuration(3_720_000)).toBe('1 h 02 m');
  });
});

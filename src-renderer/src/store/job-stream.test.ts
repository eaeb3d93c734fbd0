// The fold of generation events into the live stream: text accumulates per AgentTurn, a retry discards the partial
// text, tool calls go streaming → running → done, and the persisted closing comment replaces the stream (P7.16).
import { describe, expect, it } from 'vitest';
import type { Comment } from '../../../src-shared/entities';
import { closesStream, foldStreamEvent, type JobStream, type StreamEvent } from './job-stream';

type Without<T> = T extends unknown ? Omit<T, 'seq' | 'ts' | 'taskId' | 'jobId'> : never;
const ev = (e: Without<StreamEvent>, jobId = 'j1') => ({ seq: 1, ts: '', taskId: 't', jobId, ...e }) as StreamEvent;
const delta = (text: string, extra: Partial<Extract<StreamEvent, { type: 'stream.delta' }>> = {}) =>
  ev({ type: 'stream.delta', text, reasoning: '', toolCalls: [], ...extra });
const usage = { llmCalls: 1, promptTokens: 10, completionTokens: 5, cachedPromptTokens: 0 };
const callEnd = (outcome = 'ok', attempt = 1) =>
  ev({
    type: 'LlmCallEnd',
    llmCallCount: attempt,
    attempt,
    outcome,
    latencyMs: 5,
    ttftMs: 1,
    usage,
    cachedPromptTokens: 0,
  });

const fold = (events: StreamEvent[], start?: JobStream) =>
  events.reduce<JobStream | undefined>((s, e) => foldStreamEvent(s, e), start) as JobStream;

describe('the job stream fold', () => {
  it("a call waiting for its profile's capacity says so until it starts (issue 28)", () => {
    const start = [ev({ type: 'TurnStart', turnCount: 1 })];
    expect(fold([...start, ev({ type: 'LlmWait', reason: 'limit' })]).llm).toBe('capacity');
    const paused = fold([...start, ev({ type: 'LlmWait', reason: 'rate_limited', until: '2026-12-02T20:00:00Z' })]);
    expect(paused.llm).toBe('rate_limited');
    expect(fold([ev({ type: 'LlmCallStart', llmCallCount: 1, attempt: 1 })], paused).llm).toBe('waiting');
    expect(fold([ev({ type: 'LlmCallStart', llmCallCount: 2, attempt: 2 })], paused).llm).toBe('retrying');
  });

  it('a running call shows its latest progress; progress after it finished changes nothing', () => {
    const progress = (n: number, message: string | null = null) =>
      ev({ type: 'tool.progress', callId: 'c1', name: 'mcp__every__long', progress: n, total: 4, message });
    const running = fold([
      ev({ type: 'TurnStart', turnCount: 1 }),
      ev({ type: 'LlmCallStart', llmCallCount: 1, attempt: 1 }),
      delta('', { toolCalls: [{ index: 0, name: 'mcp__every__long', arguments: '{}' }] }),
      callEnd(),
      progress(1),
      progress(2, 'half way'),
    ]);
    expect(running.turns[0]?.toolCalls[0]).toMatchObject({
      status: 'running',
      progress: { progress: 2, total: 4, message: 'half way' },
    });
    const done = fold(
      [ev({ type: 'tool.finished', callId: 'c1', name: 'mcp__every__long', ok: true, preview: 'done' }), progress(4)],
      running,
    );
    expect(done.turns[0]?.toolCalls[0]).toMatchObject({ status: 'ok', progress: { progress: 2 } });
  });

  it('P7.17 a turn sent again to a window that rejoined mid-stream is rebuilt whole, not shown twice', () => {
    const start = [
      ev({ type: 'TurnStart', turnCount: 1 }),
      ev({ type: 'LlmCallStart', llmCallCount: 1, attempt: 1 }),
      delta('Hello, '),
    ];
    // The window saw the start, missed some deltas while its connection was down, then got the turn so far again
    // (the host merges the deltas) and what followed live.
    const rejoined = fold([...start, ...start.slice(0, 2), delta('Hello, world'), delta('!')]);
    const watched = fold([...start, delta('world'), delta('!')]);
    expect(rejoined).toEqual(watched);
    expect(rejoined.turns).toHaveLength(1);
    expect(rejoined.turns[0]?.text).toBe('Hello, world!');
    expect(rejoined.turns[0]?.llmCalls).toBe(1);
  });

  it('P8.07 a fired Auto Prompter rule is shown on the call it fired for, from its allowlisted fields', () => {
    const s = fold([
      ev({ type: 'TurnStart', turnCount: 1 }),
      ev({ type: 'LlmCallStart', llmCallCount: 1, attempt: 1 }),
      delta('', { toolCalls: [{ index: 0, name: 'run_command', arguments: '{"command":"rm -rf build"}' }] }),
      callEnd(),
      ev({ type: 'policy.fired', ruleIndex: 2, ruleId: null, action: 'deny', tool: 'run_command' }),
      ev({ type: 'policy.fired', ruleIndex: 0, ruleId: 'x', action: 'deny', tool: 'not_called' }),
    ]);
    expect(s.turns[0]?.toolCalls).toEqual([
      expect.objectContaining({ name: 'run_command', policy: { action: 'deny', rule: 'rules[2]' } }),
    ]);
  });

  it('P7.16 a delegated sub-agent streams nested in its delegate call, which ends with the call', () => {
    const finished = (name: string, preview: string) =>
      ev({ type: 'tool.finished', callId: `c-${name}`, name, ok: true, preview });
    let s = fold([
      ev({ type: 'TurnStart', turnCount: 1 }),
      ev({ type: 'LlmCallStart', llmCallCount: 1, attempt: 1 }),
      delta('Asking a helper. ', { toolCalls: [{ index: 0, name: 'delegate', arguments: '{"instruction":"list"}' }] }),
      callEnd(),
      // The sub-agent's own turn: its text and its tool call, while the parent's delegate call runs.
      ev({ type: 'TurnStart', turnCount: 2 }),
      ev({ type: 'LlmCallStart', llmCallCount: 2, attempt: 1 }),
      delta('sub-agent looks', { toolCalls: [{ index: 0, name: 'list_dir', arguments: '{"path":"."}' }] }),
    ]);
    expect(s.llm).toBe('streaming');
    s = fold([callEnd(), finished('list_dir', 'a.ts'), ev({ type: 'TurnEnd', turnCount: 2, usage })], s);
    expect(s.turns).toHaveLength(1);
    const [delegate] = s.turns[0]?.toolCalls ?? [];
    expect(delegate).toMatchObject({ name: 'delegate', status: 'running' });
    expect(delegate?.nested).toEqual([
      expect.objectContaining({
        turnCount: 2,
        text: 'sub-agent looks',
        toolCalls: [expect.objectContaining({ name: 'list_dir', status: 'ok', preview: 'a.ts' })],
      }),
    ]);
    s = fold([finished('delegate', 'the helper found a.ts')], s);
    expect(s.turns[0]?.toolCalls[0]).toMatchObject({ status: 'ok', preview: 'the helper found a.ts' });
    expect(s.turns[0]?.text).toBe('Asking a helper. ');
    // After the call, the parent's next turn is top-level again.
    s = fold([ev({ type: 'TurnStart', turnCount: 3 }), delta('Done.')], s);
    expect(s.turns.map((t) => t.text)).toEqual(['Asking a helper. ', 'Done.']);
  });

  it('accumulates text and reasoning of the current AgentTurn and shows the LLM state', () => {
    let s = fold([
      ev({ type: 'movement.entered', movement: 'work' }),
      ev({ type: 'TurnStart', turnCount: 1 }),
      ev({ type: 'LlmCallStart', llmCallCount: 1, attempt: 1 }),
    ]);
    expect(s.llm).toBe('waiting');
    expect(s.movement).toBe('work');
    s = fold([delta('Hel', { reasoning: 'thinking…' }), delta('lo')], s);
    expect(s.llm).toBe('streaming');
    expect(s.turns).toHaveLength(1);
    expect(s.turns[0]).toMatchObject({ text: 'Hello', reasoning: 'thinking…', llmCalls: 1, movement: 'work' });
    s = fold([callEnd(), ev({ type: 'TurnEnd', turnCount: 1, usage })], s);
    expect(s.llm).toBe('idle');
  });

  it('discards the partial text of an LlmCall that is retried, inside the same AgentTurn', () => {
    const s = fold([
      ev({ type: 'TurnStart', turnCount: 1 }),
      ev({ type: 'LlmCallStart', llmCallCount: 1, attempt: 1 }),
      delta('partial answer that n'),
      callEnd('retryable_error'),
    ]);
    expect(s.llm).toBe('retrying');
    const retried = fold([ev({ type: 'LlmCallStart', llmCallCount: 2, attempt: 2 })], s);
    expect(retried.llm).toBe('retrying');
    expect(retried.attempt).toBe(2);
    expect(retried.turns).toHaveLength(1);
    expect(retried.turns[0]).toMatchObject({ text: '', llmCalls: 2, discarded: 1 });
    const after = fold([delta('The whole answer.')], retried);
    expect(after.turns[0]?.text).toBe('The whole answer.');
    expect(after.llm).toBe('streaming');
    expect(fold([callEnd('terminal_error', 2)], after).llm).toBe('idle');
  });

  it('follows tool calls from their streamed arguments to their result', () => {
    let s = fold([
      ev({ type: 'TurnStart', turnCount: 1 }),
      ev({ type: 'LlmCallStart', llmCallCount: 1, attempt: 1 }),
      delta('', { toolCalls: [{ index: 0, name: 'read_file', arguments: '{"pa' }] }),
      delta('', { toolCalls: [{ index: 0, arguments: 'th":"a.txt"}' }] }),
    ]);
    expect(s.turns[0]?.toolCalls).toEqual([
      { index: 0, name: 'read_file', arguments: '{"path":"a.txt"}', status: 'streaming', preview: null },
    ]);
    s = fold([callEnd(), ev({ type: 'TurnEnd', turnCount: 1, usage })], s);
    expect(s.llm).toBe('tools');
    expect(s.turns[0]?.toolCalls[0]?.status).toBe('running');
    s = fold([ev({ type: 'tool.finished', callId: 'c1', name: 'read_file', ok: true, preview: 'hello' })], s);
    expect(s.turns[0]?.toolCalls[0]).toMatchObject({ status: 'ok', preview: 'hello' });
    expect(s.llm).toBe('idle');
    // The next AgentTurn is a new block; the finished call stays with its own turn.
    s = fold([ev({ type: 'TurnStart', turnCount: 2 }), delta('Done reading.')], s);
    expect(s.turns.map((t) => [t.turnCount, t.text, t.toolCalls.length])).toEqual([
      [1, '', 1],
      [2, 'Done reading.', 0],
    ]);
  });

  it("starts afresh for another job's events and is closed only by that job's result, question or error", () => {
    const s = fold([ev({ type: 'TurnStart', turnCount: 1 }), delta('old')]);
    const other = foldStreamEvent(s, delta('new', { jobId: 'j2' }));
    expect(other.jobId).toBe('j2');
    expect(other.turns.map((t) => t.text)).toEqual(['new']);

    const comment = (kind: Comment['kind'], jobId: string | null): Comment => ({
      id: kind,
      taskId: 't',
      jobId,
      author: 'agent',
      kind,
      body: '',
      createdAt: '',
    });
    expect(closesStream(s, comment('result', 'j1'))).toBe(true);
    expect(closesStream(s, comment('question', 'j1'))).toBe(true);
    expect(closesStream(s, comment('error', 'j1'))).toBe(true);
    expect(closesStream(s, comment('result', 'j2'))).toBe(false);
    expect(closesStream(s, comment('comment', 'j1'))).toBe(false);
  });
});

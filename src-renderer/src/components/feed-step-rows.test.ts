// The chat's persisted steps among the comments (movement markers, the answer of `complete` until the job's result is
// loaded, the calls shown) and the live stream beside them: a recorded turn is shown once, by its step; the
// sub-agent turns of a running delegate call that are not recorded yet follow it, one level deeper.
import { describe, expect, it } from 'vitest';
import type { ChatStep } from '../../../src-shared/entities';
import { chatItems } from '../store/chat-items';
import { foldStreamEvent, foldStreamJob, type JobStream, type StreamEvent, type StreamTurn } from '../store/job-stream';
import { atSecond, commentFixture, jobFixture, stepFixture, streamTurnFixture } from '../test-fixtures';
import { type FeedRow, itemRows } from './feed-rows';
import { besidePersisted, rowKeys, streamedKeys, streamRows } from './stream-rows';

const at = atSecond;
const comment = commentFixture;
const step = (seq: number, s: number, patch: Partial<ChatStep> = {}): ChatStep =>
  stepFixture(seq, s, { movement: 'plan', text: `step ${seq}`, ...patch });

const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: JSON.stringify(args), result: null });

const shape = (rows: FeedRow[]) =>
  rows.map((r) => {
    switch (r.kind) {
      case 'comment':
        return `comment ${r.comment.id}`;
      case 'step':
        return `step ${r.step.id} "${r.text}" [${r.toolCalls.map((c) => c.name).join(',')}]`;
      case 'movement':
        return `movement ${r.movement}`;
      case 'turn':
        return `turn ${r.depth} "${r.text}"`;
      default:
        return r.kind;
    }
  });

describe('itemRows with steps', () => {
  it('steps sit among the comments in time order, each movement change marked once, transitions shown by the marker', () => {
    const items = chatItems(
      [comment('ask', 0), comment('result', 9, { author: 'agent', kind: 'result', body: 'All done.' })],
      [
        step(1, 1, { toolCalls: [call('c1', 'read_file', { path: 'a' })] }),
        step(2, 2, { text: '', toolCalls: [call('c2', 'transition', { to: 'build' })] }),
        step(3, 3, {
          movement: 'build',
          toolCalls: [call('c3', 'complete', { status: 'success', message: 'All done.' })],
        }),
      ],
    );
    expect(shape(itemRows(items, []))).toEqual([
      'comment ask',
      'movement plan',
      'step step:1 "step 1" [read_file]',
      'movement build',
      // The result comment is loaded: the step does not repeat the answer.
      'step step:3 "step 3" []',
      'comment result',
    ]);
  });

  it('until the result comment is loaded, a step shows the answer of its complete call as its text', () => {
    const done = step(3, 3, {
      text: 'Checked.',
      toolCalls: [call('c3', 'complete', { status: 'success', message: '**Done**' })],
    });
    expect(shape(itemRows(chatItems([comment('ask', 0)], [done]), []))).toEqual([
      'comment ask',
      'movement plan',
      'step step:3 "Checked.\n\n**Done**" []',
    ]);
    // A complete the engine refused stays listed, with its result.
    const refused = step(4, 4, {
      toolCalls: [
        {
          ...call('c4', 'complete', { message: 'x' }),
          result: { ok: false, content: 'Error: subtasks open', chars: 20 },
        },
      ],
    });
    expect(shape(itemRows(chatItems([], [refused]), []))).toEqual(['movement plan', 'step step:4 "step 4" [complete]']);
  });

  it('a step with nothing to show has no row; a failed generation shows with its error', () => {
    const rows = itemRows(chatItems([], [step(1, 1, { text: '' }), step(2, 2, { text: '', error: 'LLM: 401' })]), []);
    expect(shape(rows)).toEqual(['movement plan', 'step step:2 "" []']);
  });
});

const turn = (patch: Partial<StreamTurn>): StreamTurn => streamTurnFixture({ movement: 'plan', ...patch });

const stream = (turns: StreamTurn[]): JobStream => ({
  jobId: 'j1',
  llm: 'streaming',
  attempt: 1,
  movement: 'plan',
  turns,
});

describe('streamRows beside the steps', () => {
  it('a recorded turn is left to its step; the movement the steps showed is not marked again', () => {
    const rows = streamRows(
      stream([turn({ text: 'done', stepId: 'step:1' }), turn({ turnCount: 2, text: 'now' })]),
      'plan',
    );
    expect(shape(rows)).toEqual(['turn 0 "now"']);
    expect(shape(streamRows(stream([turn({ text: 'now', movement: 'build' })]), 'plan'))).toEqual([
      'movement build',
      'turn 0 "now"',
      'movement plan',
    ]);
  });

  it('the sub-agent turns of a running delegate call that are not recorded yet follow, one level deeper', () => {
    const nested = [turn({ text: 'sub done', stepId: 'step:2' }), turn({ turnCount: 2, text: 'sub working' })];
    const host = { index: 0, name: 'delegate', arguments: '{}', status: 'running' as const, preview: null, nested };
    const rows = streamRows(stream([turn({ text: 'delegating', stepId: 'step:1', toolCalls: [host] })]), 'plan');
    expect(shape(rows)).toEqual(['turn 1 "sub working"']);
    // Once the delegate call finished, its sub-agent's turns are all steps.
    const finished = { ...host, status: 'ok' as const };
    expect(streamRows(stream([turn({ text: 'delegating', stepId: 'step:1', toolCalls: [finished] })]), 'plan')).toEqual(
      [],
    );
  });
});

describe('the stream marks the turn a step records', () => {
  const base = { seq: 0, ts: at(0), taskId: 't', jobId: 'j1' };
  const fold = (events: Record<string, unknown>[]) =>
    events.reduce<JobStream | undefined>(
      (s, e) => foldStreamEvent(s, { ...base, ...e } as StreamEvent),
      undefined,
    ) as JobStream;

  it('the job’s own step marks its last turn; a sub-agent’s marks the turn inside the running delegate call', () => {
    const delegating = [
      { type: 'TurnStart', turnCount: 1 },
      { type: 'LlmCallStart', llmCallCount: 1, attempt: 1 },
      {
        type: 'stream.delta',
        text: 'handing over',
        reasoning: '',
        toolCalls: [{ index: 0, id: 'd1', name: 'delegate', arguments: '{}' }],
      },
      {
        type: 'LlmCallEnd',
        llmCallCount: 1,
        attempt: 1,
        outcome: 'ok',
        latencyMs: 1,
        ttftMs: 1,
        usage: { llmCalls: 1, promptTokens: 1, completionTokens: 1, cachedPromptTokens: 0 },
        cachedPromptTokens: 0,
      },
      { type: 'step.recorded', step: step(1, 1) },
    ];
    const parent = fold(delegating);
    expect(parent.turns.map((t) => t.stepId)).toEqual(['step:1']);
    const child = fold([
      ...delegating,
      { type: 'TurnStart', turnCount: 2 },
      { type: 'stream.delta', text: 'sub', reasoning: '', toolCalls: [] },
      { type: 'step.recorded', step: step(2, 2, { depth: 1 }) },
    ]);
    const host = child.turns[0]?.toolCalls[0];
    expect(child.turns.map((t) => t.stepId)).toEqual(['step:1']);
    expect(host?.nested?.map((t) => [t.text, t.stepId])).toEqual([['sub', 'step:2']]);
  });
});

describe('a step takes over the key of the turn it replaced', () => {
  it('streamedKeys maps each recorded turn (a sub-agent’s too) to its row key; itemRows gives the step that key', () => {
    const nested = [turn({ text: 'sub', stepId: 'step:2' })];
    const host = { index: 0, name: 'delegate', arguments: '{}', status: 'ok' as const, preview: null, nested };
    const live = stream([turn({ text: 'long answer', stepId: 'step:1', toolCalls: [host] })]);
    const keys = streamedKeys(live);
    expect([...keys]).toEqual([
      ['step:1', 'turn:j1:t1'],
      ['step:2', 'turn:j1:t1.0.t1'],
    ]);
    const before = streamRows(stream([turn({ text: 'long answer' })]));
    const rows = itemRows(chatItems([], [step(1, 1, { text: 'long answer' })]), [], 0, undefined, (id) => keys.get(id));
    const stepRow = rows.find((r) => r.kind === 'step');
    expect(stepRow?.key).toBe(before.find((r) => r.kind === 'turn')?.key);
    expect(itemRows(chatItems([], [step(1, 1)]), []).find((r) => r.kind === 'step')?.key).toBe('step:1');
  });
});

describe('a job that resumes after each approval (issue 23: one step drawn 8 times under one key)', () => {
  const event = (s: number, e: Record<string, unknown>) =>
    ({ seq: 0, ts: at(s), taskId: 't', jobId: 'j1', ...e }) as StreamEvent;
  const job = (status: 'running' | 'queued') => jobFixture({ id: 'j1', taskId: 't', status });
  /** One run of the job: it starts, streams a turn (its count from 1 again) and records it, then parks. */
  const run = (before: JobStream | undefined, s: number, seq: number) => {
    let live = foldStreamJob(before, job('running'));
    for (const e of [
      { type: 'TurnStart', turnCount: 1 },
      { type: 'LlmCallStart', llmCallCount: 1, attempt: 1 },
      { type: 'stream.delta', text: `step ${seq}`, reasoning: '', toolCalls: [] },
    ])
      live = foldStreamEvent(live, event(s, e));
    const streaming = live as JobStream;
    const recorded = foldStreamEvent(live, event(s, { type: 'step.recorded', step: step(seq, s) }));
    return { streaming, recorded, parked: foldStreamJob(recorded, job('queued')) };
  };

  it('each run streams under keys of its own; a recorded step keeps its turn’s key and is shown once', () => {
    // What the feed keeps while it is open: the key each step took over from its turn.
    const adopted = new Map<string, string>();
    const steps: ChatStep[] = [];
    let stream: JobStream | undefined;
    for (let seq = 1; seq <= 8; seq++) {
      const { streaming, recorded, parked } = run(stream, seq * 10, seq);
      // While it streams: the steps before it and its live turn, every key once.
      const persisted = itemRows(chatItems([], steps), [], 0, undefined, (id) => adopted.get(id));
      const live = besidePersisted(rowKeys(persisted), streamRows(streaming, 'plan'));
      const keys = [...persisted, ...live].map((r) => r.key);
      expect(new Set(keys).size, keys.join(' ')).toBe(keys.length);
      expect(live.map((r) => r.kind)).toEqual(['turn']);
      // Recorded: the step takes the turn's key (its DOM is kept), and the turn is gone from the live rows.
      const turnKey = live[0]?.key;
      for (const [id, key] of streamedKeys(recorded)) adopted.set(id, key);
      steps.push(step(seq, seq * 10));
      const after = itemRows(chatItems([], steps), [], 0, undefined, (id) => adopted.get(id));
      expect(after.find((r) => r.kind === 'step' && r.step.seq === seq)?.key).toBe(turnKey);
      expect(besidePersisted(rowKeys(after), streamRows(recorded, 'plan'))).toEqual([]);
      stream = parked;
    }
    const rows = itemRows(chatItems([], steps), [], 0, undefined, (id) => adopted.get(id));
    expect(new Set(rows.map((r) => r.key)).size).toBe(rows.length);
    expect(rows.filter((r) => r.kind === 'step')).toHaveLength(8);
  });

  it('a live row whose key a persisted row has already is the step that replaced it: it is not shown again', () => {
    const persisted = itemRows(chatItems([], [step(1, 1)]), [], 0, undefined, () => 'turn:j1:x');
    const live = streamRows(
      stream([turn({ id: 'x', text: 'step 1' }), turn({ id: 'y', turnCount: 2, text: 'next' })]),
      'plan',
    );
    expect(besidePersisted(rowKeys(persisted), live).map((r) => r.key)).toEqual(['turn:j1:y:0']);
  });

  it('a turn recorded while the window was not listening is left to the page’s step once the next turn starts', () => {
    const missed = [
      { type: 'TurnStart', turnCount: 1 },
      { type: 'stream.delta', text: 'recorded unseen', reasoning: '', toolCalls: [] },
      { type: 'TurnStart', turnCount: 2 },
      { type: 'stream.delta', text: 'now', reasoning: '', toolCalls: [] },
    ].reduce<JobStream | undefined>((s, e, i) => foldStreamEvent(s, event(i, e)), undefined);
    expect(shape(streamRows(missed ?? null, 'plan'))).toEqual(['turn 0 "now"']);
    expect([...streamedKeys(missed ?? null)]).toEqual([]);
  });
});

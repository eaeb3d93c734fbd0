// Transcript replay (spec 3.3, paths P6): fixtures in replay-fixtures/ (transcript.jsonl → expected messages), rules, a property test.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { setup } from '../../test-support/tasks';
import { call, line, transcriptOf } from '../../test-support/transcript-lines';
import { type AssistantToolCall, messageText } from '../llm/types';
import { type ChatMessage, parseTranscript, splitThreads, type TranscriptLine } from './conversation';
import { allReplayableThreads, isSamePieceContinuation, replayableTurns, replayTranscript } from './replay';

const FIXTURES = path.join(__dirname, 'replay-fixtures');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, `${name}.jsonl`), 'utf8');
const expected = (name: string): { samePiece: ChatMessage[]; crossPiece: ChatMessage[] } =>
  JSON.parse(fs.readFileSync(path.join(FIXTURES, `${name}.expected.json`), 'utf8'));

const same = { keepTransitions: true };
const cross = { keepTransitions: false };

describe('transcript replay fixtures (replay-fixtures/*.jsonl → *.expected.json)', () => {
  const cases: [string, string][] = [
    ['P6.03 P6.04 P6.06 P6.07 P6.12 P6.13 P6.14 P6.16 P6.20', 'three-threads'],
    ['P6.05 P6.06', 'collide-finished-complete'],
    ['P6.08 P6.09 P6.10 P6.11', 'complete-and-transitions'],
    ['P6.17 P6.18 P6.19 P6.20', 'unanswered-and-orphans'],
    ['P6.22', 'empty-last-thread'],
    ['P6.01', 'torn-last-line'],
    ['P6.23', 'comment-follow-ups'],
    ['P6.02', 'only-system-lines'],
  ];

  it('every fixture has a case', () => {
    const files = fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.jsonl'));
    expect(files.map((f) => f.replace('.jsonl', '')).sort()).toEqual(cases.map(([, name]) => name).sort());
  });

  it.each(cases)('%s %s: same-piece and cross-piece replay as expected', (_ids, name) => {
    expect(replayTranscript(fixture(name), same)).toEqual(expected(name).samePiece);
    expect(replayTranscript(fixture(name), cross)).toEqual(expected(name).crossPiece);
  });

  it.each(cases)('P6.28 %s %s: the same file replayed twice gives byte-identical messages', (_ids, name) => {
    for (const options of [same, cross]) {
      expect(JSON.stringify(replayTranscript(fixture(name), options))).toBe(
        JSON.stringify(replayTranscript(fixture(name), options)),
      );
    }
  });
});

describe('transcript replay rules', () => {
  it('P6.03 P6.04 P6.07 N system lines give N threads; lines before the first system line are ignored', () => {
    const lines = [
      line({ role: 'user', content: 'before any system line' }),
      line({ role: 'system', content: 'S1' }),
      line({ role: 'user', content: 'one' }),
      line({ role: 'system', content: 'S2' }),
      line({ role: 'system', content: 'S3' }),
      line({ role: 'user', content: 'three' }),
    ];
    expect(allReplayableThreads(lines, same)).toEqual([
      { role: 'user', content: 'one' },
      { role: 'user', content: 'three' },
    ]);
  });

  it('P6.05 thread 2 reusing the id of thread 1’s finished complete does not revive it', () => {
    const out = replayTranscript(fixture('collide-finished-complete'), same);
    expect(calls(out).map((c) => [c.id, c.function.name])).toEqual([
      ['gen_call_1', 'read_file'],
      ['gen_call_2', 'read_file'],
    ]);
    // Paired across threads, thread 1's unanswered complete would take thread 2's leading `Error` result.
    const crashed = [
      line({ role: 'system', content: 'S' }),
      line({ role: 'assistant', content: null, tool_calls: [call('gen_call_1', 'complete')] }),
      line({ role: 'system', content: 'S' }, 'job_2'),
      line({ role: 'tool', tool_call_id: 'gen_call_1', content: 'Error: stray' }, 'job_2'),
    ];
    expect(allReplayableThreads(crashed, same)).toEqual([]);
  });

  it('P6.06 colliding ids are renamed call and result together; the rest keeps its bytes', () => {
    const threads = splitThreads(parseTranscript(fixture('three-threads')));
    const cleaned = threads.flatMap((t, i) =>
      replayableTurns(
        t.map((l) => l.message),
        i === threads.length - 1,
      ),
    );
    const out = allReplayableThreads(threads.flat(), same);
    const renamed = out.filter((m) => JSON.stringify(m).includes('~'));
    expect(renamed.map(idsOf)).toEqual([['gen_call_1~2'], ['gen_call_1~2'], ['gen_call_2~2'], ['gen_call_2~2']]);
    expect(out).toHaveLength(cleaned.length);
    for (const [i, m] of out.entries()) {
      if (renamed.includes(m)) {
        expect(JSON.stringify(m).replace(/(gen_call_\d+)~2/g, '$1')).toBe(JSON.stringify(cleaned[i]));
      } else expect(JSON.stringify(m)).toBe(JSON.stringify(cleaned[i]));
    }
  });

  it('P6.06 P6.19 reasoning and provider fields replay byte for byte: kept calls, renamed calls, a message left with text', () => {
    // Gemini's thought signature on a call and OpenRouter's reasoning blocks, as the engine keeps them (issue 12).
    const extras = {
      reasoning_content: 'Plan first.',
      reasoning_details: [{ type: 'reasoning.text', text: 'Plan first.', signature: 'c2ln', index: 0 }],
      extra_content: { google: { thought_signature: 'bXNn' } },
    };
    const signed = (id: string): AssistantToolCall => ({
      id,
      type: 'function',
      function: { name: 'read_file', arguments: '{}' },
      extra_content: { google: { thought_signature: `sig-${id}` } },
    });
    const thread = (jobId: string): TranscriptLine[] => [
      line({ role: 'system', content: 'S' }, jobId),
      line({ role: 'user', content: `task of ${jobId}` }, jobId),
      line({ role: 'assistant', content: null, ...extras, tool_calls: [signed('gen_call_1')] }, jobId),
      line({ role: 'tool', tool_call_id: 'gen_call_1', content: 'ok' }, jobId),
      line({ role: 'assistant', content: 'Reading more.', ...extras, tool_calls: [signed('gen_call_2')] }, jobId),
    ];
    const out = allReplayableThreads([...thread('job_1'), ...thread('job_2')], same);
    const assistants = out.filter((m) => m.role === 'assistant');
    expect(assistants.map((m) => JSON.stringify(m))).toEqual([
      JSON.stringify({ role: 'assistant', content: null, ...extras, tool_calls: [signed('gen_call_1')] }),
      JSON.stringify({ role: 'assistant', content: 'Reading more.', ...extras }),
      JSON.stringify({
        role: 'assistant',
        content: null,
        ...extras,
        tool_calls: [{ ...signed('gen_call_1'), id: 'gen_call_1~2' }],
      }),
      JSON.stringify({ role: 'assistant', content: 'Reading more.', ...extras }),
    ]);
  });

  it('P6.06 the renamed id is the smallest free ~n; a later thread never renames an earlier pair', () => {
    const thread = (job: string, ...ids: string[]) => [
      line({ role: 'system', content: 'S' }, job),
      ...ids.flatMap((id) => [
        line({ role: 'assistant', content: null, tool_calls: [call(id, 'read_file')] }, job),
        line({ role: 'tool', tool_call_id: id, content: 'ok' }, job),
      ]),
    ];
    const two = [...thread('job_1', 'a', 'a~2'), ...thread('job_2', 'a')];
    expect(calls(allReplayableThreads(two, same)).map((c) => c.id)).toEqual(['a', 'a~2', 'a~3']);
    const three = [...two, ...thread('job_3', 'a', 'a~3')];
    const out = allReplayableThreads(three, same);
    expect(calls(out).map((c) => c.id)).toEqual(['a', 'a~2', 'a~3', 'a~4', 'a~3~2']);
    expect(out.slice(0, 6)).toEqual(allReplayableThreads(two, same));
  });

  it('P6.08 P6.09 complete kept only when its result starts with Error, whatever its status', () => {
    const complete = (id: string, status: string): ChatMessage => ({
      role: 'assistant',
      content: null,
      tool_calls: [call(id, 'complete', { status, message: 'm' })],
    });
    const out = replayableTurns(
      [
        { role: 'system', content: 'S' },
        complete('c1', 'success'),
        { role: 'tool', tool_call_id: 'c1', content: 'Error: not processed' },
        complete('c2', 'failure'),
        { role: 'tool', tool_call_id: 'c2', content: 'Failed: no access' },
        complete('c3', 'needs_user_input'),
        { role: 'tool', tool_call_id: 'c3', content: 'Asked the user: which?' },
        complete('c4', 'success'),
        { role: 'tool', tool_call_id: 'c4', content: 'error: lower case is not Error' },
        complete('c5', 'success'),
      ],
      true,
    );
    expect(out.map(idsOf)).toEqual([['c1'], ['c1']]);
  });

  it('P6.10 transitions co-emitted with a dropped complete are dropped even when keepTransitions', () => {
    const out = replayableTurns(
      [
        { role: 'system', content: 'S' },
        {
          role: 'assistant',
          content: 'Done.',
          tool_calls: [call('t1', 'transition', { next: 'review' }), call('c1', 'complete'), call('r1', 'read_file')],
        },
        { role: 'tool', tool_call_id: 't1', content: 'Moved to movement review.' },
        { role: 'tool', tool_call_id: 'c1', content: 'Completed.' },
        { role: 'tool', tool_call_id: 'r1', content: 'text' },
      ],
      true,
    );
    expect(out).toEqual([
      { role: 'assistant', content: 'Done.', tool_calls: [call('r1', 'read_file')] },
      { role: 'tool', tool_call_id: 'r1', content: 'text' },
    ]);
  });

  it('P6.11 P6.12 P6.14 a transition beside an Error complete follows the transition rules', () => {
    const thread: ChatMessage[] = [
      { role: 'system', content: 'S' },
      { role: 'assistant', content: null, tool_calls: [call('c1', 'complete'), call('t1', 'transition')] },
      { role: 'tool', tool_call_id: 'c1', content: 'Error: invalid arguments' },
      { role: 'tool', tool_call_id: 't1', content: 'Moved to movement fix.' },
    ];
    expect(replayableTurns(thread, true).map(idsOf)).toEqual([['c1', 't1'], ['c1'], ['t1']]);
    expect(replayableTurns(thread, false).map(idsOf)).toEqual([['c1'], ['c1']]);
  });

  it('P6.12 P6.13 P6.15 keepTransitions reaches the last thread only', () => {
    const text = fixture('three-threads');
    const transitions = (options: { keepTransitions: boolean }) =>
      calls(replayTranscript(text, options))
        .filter((c) => c.function.name === 'transition')
        .map((c) => c.function.arguments);
    expect(transitions(same)).toEqual(['{"next":"review","reason":"tests pass"}']);
    expect(transitions(cross)).toEqual([]);
  });

  it('P6.15 samePieceContinuation: the continued-from job ran the new job’s piece', () => {
    expect(isSamePieceContinuation('default', 'default')).toBe(true);
    expect(isSamePieceContinuation('default', 'review')).toBe(false);
    expect(isSamePieceContinuation(null, 'default')).toBe(false);
    expect(isSamePieceContinuation(undefined, 'default')).toBe(false);
  });

  it('P6.17 P6.18 a result answers the latest assistant message that used its id, each call once', () => {
    const out = replayableTurns(
      [
        { role: 'assistant', content: null, tool_calls: [call('x', 'complete')] },
        { role: 'user', content: 'resumed' },
        { role: 'assistant', content: null, tool_calls: [call('x', 'read_file'), call('x', 'glob')] },
        { role: 'tool', tool_call_id: 'x', content: 'Error: first' },
        { role: 'tool', tool_call_id: 'x', content: 'second' },
        { role: 'tool', tool_call_id: 'x', content: 'third: an orphan' },
      ],
      true,
    );
    expect(out).toEqual([
      { role: 'user', content: 'resumed' },
      { role: 'assistant', content: null, tool_calls: [call('x', 'read_file'), call('x', 'glob')] },
      { role: 'tool', tool_call_id: 'x', content: 'Error: first' },
      { role: 'tool', tool_call_id: 'x', content: 'second' },
    ]);
    const renamed = allReplayableThreads([line({ role: 'system', content: 'S' }), ...out.map((m) => line(m))], same);
    expect(renamed.map(idsOf)).toEqual([[], ['x', 'x~2'], ['x'], ['x~2']]);
  });

  it('P6.01 P6.02 empty text, a torn line alone, and parsable lines that are not chat messages are never fatal', () => {
    expect(replayTranscript('', same)).toEqual([]);
    expect(replayTranscript('{"ts":"x","jobId":"j","message":{"role":"sys', same)).toEqual([]);
    const odd = [
      '{"ts":"x","jobId":"j","message":{"role":"system","content":"S"}}',
      '{"ts":"x","jobId":"j","message":{"role":"user","content":"kept"}}',
      '{"ts":"x","jobId":"j","message":{"role":"assistant","content":null,"tool_calls":"nope"}}',
      '{"ts":"x","jobId":"j","message":{"role":"assistant","content":[1],"tool_calls":[]}}',
      '{"ts":"x","jobId":"j","message":{"role":"tool","tool_call_id":7,"content":"x"}}',
      '{"ts":"x","jobId":"j","message":{"role":"assistant","content":null,"tool_calls":[{"id":"a"}]}}',
      '{"ts":"x","jobId":"j","message":{"role":"tool","tool_call_id":"a","content":null}}',
      '[1,2]',
    ].join('\n');
    expect(replayTranscript(odd, same)).toEqual([{ role: 'user', content: 'kept' }]);
  });

  it('P6.22 an empty last thread turns the one before into an older thread: its transitions drop', () => {
    const lines = parseTranscript(fixture('empty-last-thread'));
    const withoutEmpty = lines.slice(0, -1);
    const names = (l: TranscriptLine[]) => calls(allReplayableThreads(l, same)).map((c) => c.function.name);
    expect(names(withoutEmpty)).toEqual(['transition', 'read_file']);
    expect(names(lines)).toEqual(['read_file']);
  });

  it('P6.23 after comment follow-ups, a Continue replays the context before the answered question', () => {
    const out = replayTranscript(fixture('comment-follow-ups'), same);
    const users = out.filter((m) => m.role === 'user').map((m) => m.content);
    expect(users).toEqual([
      'Write the quarterly report',
      'Question: PDF or Markdown?\nAnswer: Markdown',
      'Comment: add a chart',
    ]);
    const asked = out.findIndex((m) => m.role === 'user' && messageText(m.content).startsWith('Question'));
    expect(out.slice(0, asked)).toContainEqual({
      role: 'tool',
      tool_call_id: 'gen_call_1',
      content: 'revenue,120\ncost,80',
    });
  });
});

describe('P6.29 getTranscript', () => {
  it('P6.29 P6.02 entries = the replayable conversation of a same-piece Continue; no file → no entries', () => {
    const { m, create } = setup();
    const { task } = create();
    expect(m.invoke('getTranscript', { taskId: task.id })).toEqual({ entries: [] });
    const transcript = transcriptOf(m, task.id);
    transcript.replace(fixture('three-threads'));
    expect(m.invoke('getTranscript', { taskId: task.id })).toEqual({ entries: expected('three-threads').samePiece });
    transcript.replace(fixture('torn-last-line'));
    expect(m.invoke('getTranscript', { taskId: task.id })).toEqual({ entries: expected('torn-last-line').samePiece });
  });
});

// --- helpers

function calls(messages: readonly ChatMessage[]): AssistantToolCall[] {
  return messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []));
}

function idsOf(m: ChatMessage): string[] {
  if (m.role === 'tool') return [m.tool_call_id];
  return m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.id) : [];
}

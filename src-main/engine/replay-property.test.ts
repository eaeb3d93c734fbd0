// P6.21: seeded random transcripts replay to a valid conversation (every call answered once, ids unique, transitions
// only where they may stay), the same on a second run, with every user message kept.
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../test-support/prng';
import { call, line } from '../../test-support/transcript-lines';
import type { AssistantToolCall } from '../llm/types';
import type { ChatMessage, TranscriptLine } from './conversation';
import { allReplayableThreads } from './replay';

const same = { keepTransitions: true };
const cross = { keepTransitions: false };

describe('P6.21 property: random transcripts replay to a valid conversation', () => {
  const CASES = 400;

  it(`P6.21 P6.28 ${CASES} seeded random transcripts`, () => {
    for (let seed = 1; seed <= CASES; seed++) {
      const lines = randomTranscript(mulberry32(seed));
      for (const options of [same, cross]) {
        const out = allReplayableThreads(lines, options);
        const where = `seed ${seed}, keepTransitions ${options.keepTransitions}`;
        expect(checkConversation(out, options.keepTransitions), where).toEqual([]);
        const again = allReplayableThreads(JSON.parse(JSON.stringify(lines)), options);
        expect(JSON.stringify(again), where).toBe(JSON.stringify(out));
        const users = (ms: ChatMessage[]) => ms.filter((m) => m.role === 'user');
        const first = lines.findIndex((l) => l.message.role === 'system');
        const inThreads = first < 0 ? [] : lines.slice(first + 1);
        expect(users(out), where).toEqual(users(inThreads.map((l) => l.message)));
      }
    }
  });
});

/** Violations of the replay invariants (P6.21), empty when there are none. */
function checkConversation(out: readonly ChatMessage[], keepTransitions: boolean): string[] {
  const problems: string[] = [];
  const called = new Map<string, AssistantToolCall>();
  const answered = new Set<string>();
  for (const [i, m] of out.entries()) {
    if (m.role === 'system') problems.push(`${i}: system message replayed`);
    if (m.role === 'assistant') {
      if (m.tool_calls?.length === 0) problems.push(`${i}: empty tool_calls`);
      if (!m.tool_calls && !m.content?.trim()) problems.push(`${i}: empty assistant message`);
      for (const c of m.tool_calls ?? []) {
        if (called.has(c.id)) problems.push(`${i}: id ${c.id} used twice`);
        called.set(c.id, c);
        if (c.function.name === 'transition' && !keepTransitions) problems.push(`${i}: transition kept`);
      }
    }
    if (m.role === 'tool') {
      const c = called.get(m.tool_call_id);
      if (!c) problems.push(`${i}: result ${m.tool_call_id} without an earlier call`);
      if (answered.has(m.tool_call_id)) problems.push(`${i}: ${m.tool_call_id} answered twice`);
      answered.add(m.tool_call_id);
      if (c?.function.name === 'complete' && !m.content.startsWith('Error'))
        problems.push(`${i}: complete kept with result ${m.content}`);
    }
  }
  for (const id of called.keys()) if (!answered.has(id)) problems.push(`call ${id} unanswered`);
  return problems;
}

/** Threads of jobs whose `gen_call_{n}` ids restart, with lost results, orphans, duplicates and stray lines. */
function randomTranscript(random: () => number): TranscriptLine[] {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const names = ['read_file', 'run_command', 'transition', 'complete', 'complete', 'transition'];
  const lines: TranscriptLine[] = [];
  if (random() < 0.2) lines.push(line({ role: 'user', content: 'stray line before the first system line' }));
  const threads = Math.floor(random() * 5);
  for (let t = 0; t < threads; t++) {
    const job = `job_${t + 1}`;
    let n = 0;
    lines.push(line({ role: 'system', content: 'S' }, job));
    const turns = Math.floor(random() * 8);
    for (let k = 0; k < turns; k++) {
      if (random() < 0.25) lines.push(line({ role: 'user', content: `u${t}.${k}` }, job));
      const emitted: string[] = [];
      const toolCalls = Array.from({ length: Math.floor(random() * 4) }, () => {
        const id = random() < 0.15 ? `gen_call_${Math.max(1, n)}` : `gen_call_${++n}`;
        emitted.push(id);
        return call(id, pick(names));
      });
      const content = pick([null, '', 'text', '  ']);
      lines.push(
        line(
          toolCalls.length > 0 || random() < 0.5
            ? { role: 'assistant', content, tool_calls: toolCalls }
            : { role: 'assistant', content },
          job,
        ),
      );
      for (const id of emitted) {
        if (random() < 0.2) continue;
        const result = pick(['ok', 'Error: rejected', 'Completed.', 'Moved to movement x.']);
        lines.push(line({ role: 'tool', tool_call_id: id, content: result }, job));
        if (random() < 0.1) lines.push(line({ role: 'tool', tool_call_id: id, content: 'duplicate' }, job));
      }
      if (random() < 0.15)
        lines.push(line({ role: 'tool', tool_call_id: `gen_call_${n + 1}`, content: 'orphan' }, job));
      if (random() < 0.1) lines.push(line({ role: 'tool', tool_call_id: 'gen_call_1', content: 'Error: late' }, job));
    }
  }
  return lines;
}

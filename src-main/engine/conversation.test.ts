import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp-maestro';
import { dropUnanswered } from './call-pairs';
import { Conversation, parseTranscript, splitThreads, TRANSCRIPT_FILE } from './conversation';

const fixed = () => new Date('2026-11-29T00:00:00.000Z');

describe('Conversation and transcript.jsonl', () => {
  it('P6.25 an ordinary turn is appended as one line; earlier bytes are unchanged', () => {
    const dir = tempDir();
    const c = Conversation.open(dir, 'job_1', fixed);
    c.seed('SYS', 'USER');
    const before = fs.readFileSync(path.join(dir, TRANSCRIPT_FILE), 'utf8');
    c.append({ role: 'assistant', content: 'hi' });
    const after = fs.readFileSync(path.join(dir, TRANSCRIPT_FILE), 'utf8');
    expect(after.startsWith(before)).toBe(true);
    expect(after.slice(before.length).split('\n').filter(Boolean)).toHaveLength(1);
    expect(parseTranscript(after).map((l) => [l.jobId, l.message.role])).toEqual([
      ['job_1', 'system'],
      ['job_1', 'user'],
      ['job_1', 'assistant'],
    ]);
    // Each line is exactly JSON.stringify of its { ts, jobId, message }.
    expect(parseTranscript(after).map((l) => JSON.stringify(l))).toEqual(after.trimEnd().split('\n'));
  });

  it('P4.39 appended turns are written through: on disk when append returns, several in one write, file 0600', () => {
    const dir = tempDir();
    const c = Conversation.open(dir, 'job_1', fixed);
    c.seed('SYS', 'USER');
    const file = path.join(dir, TRANSCRIPT_FILE);
    c.append({ role: 'assistant', content: 'hi' }, { role: 'tool', tool_call_id: 'c1', content: 'result' });
    expect(parseTranscript(fs.readFileSync(file, 'utf8')).map((l) => l.message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
    ]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    c.rewrite([...c.messages]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    c.close();
  });

  it('P4.39 a step is one append: what asOneStep records is written when it returns, not before', () => {
    const dir = tempDir();
    const c = Conversation.open(dir, 'job_1', fixed);
    c.seed('SYS', 'USER');
    const file = path.join(dir, TRANSCRIPT_FILE);
    const before = fs.readFileSync(file, 'utf8');
    const writes: number[] = [];
    c.asOneStep(() => {
      c.append({ role: 'tool', tool_call_id: 'a', content: 'one' });
      c.append({ role: 'tool', tool_call_id: 'b', content: 'two' });
      writes.push(fs.readFileSync(file, 'utf8').length);
    });
    expect(writes).toEqual([before.length]);
    expect(parseTranscript(fs.readFileSync(file, 'utf8')).map((l) => l.message.content)).toEqual([
      'SYS',
      'USER',
      'one',
      'two',
    ]);
    c.close();
  });

  it.runIf(fs.existsSync('/dev/full'))('a write that fails (a full disk) throws from append, so the run stops', () => {
    const dir = tempDir();
    const c = Conversation.open(dir, 'job_1', fixed);
    fs.symlinkSync('/dev/full', path.join(dir, TRANSCRIPT_FILE));
    expect(() => c.append({ role: 'assistant', content: 'hi' })).toThrow(/ENOSPC/);
    c.close();
  });

  it('P6.01 P6.03 P6.24 a torn last line is cut off on open; a new job appends a new thread', () => {
    const dir = tempDir();
    const first = Conversation.open(dir, 'job_1', fixed);
    first.seed('SYS', 'one');
    fs.appendFileSync(path.join(dir, TRANSCRIPT_FILE), '{"ts":"x","jobId":"job_1","message":{"role":"assis');
    const second = Conversation.open(dir, 'job_2', fixed);
    second.seed('SYS', 'two');
    const lines = parseTranscript(fs.readFileSync(path.join(dir, TRANSCRIPT_FILE), 'utf8'));
    expect(lines).toHaveLength(4);
    expect(splitThreads(lines).map((t) => t.map((l) => l.jobId))).toEqual([
      ['job_1', 'job_1'],
      ['job_2', 'job_2'],
    ]);
  });

  it("P6.26 P6.27 rewrite() rebuilds the file atomically and keeps earlier jobs' threads", () => {
    const dir = tempDir();
    Conversation.open(dir, 'job_1', fixed).seed('SYS', 'one');
    const c = Conversation.open(dir, 'job_2', fixed);
    c.seed('SYS', 'two');
    c.append({ role: 'assistant', content: 'long answer' });
    c.rewrite([
      { role: 'system', content: 'SYS' },
      { role: 'user', content: 'two (compacted)' },
    ]);
    const lines = parseTranscript(fs.readFileSync(path.join(dir, TRANSCRIPT_FILE), 'utf8'));
    expect(lines.map((l) => [l.jobId, l.message.content])).toEqual([
      ['job_1', 'SYS'],
      ['job_1', 'one'],
      ['job_2', 'SYS'],
      ['job_2', 'two (compacted)'],
    ]);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('P7.13 the same job coming back continues its own thread without unanswered calls', () => {
    const dir = tempDir();
    const c = Conversation.open(dir, 'job_1', fixed);
    c.seed('SYS', 'task');
    c.append({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'a', type: 'function', function: { name: 'read_file', arguments: '{}' } },
        { id: 'b', type: 'function', function: { name: 'run_command', arguments: '{}' } },
      ],
    });
    c.append({ role: 'tool', tool_call_id: 'a', content: 'file' });
    c.close();
    const again = Conversation.open(dir, 'job_1', fixed);
    expect(again.resumeOwnThread(dropUnanswered)).toBe(true);
    expect(again.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    const assistant = again.messages[2] as { tool_calls: { id: string }[] };
    expect(assistant.tool_calls.map((t) => t.id)).toEqual(['a']);
    expect(Conversation.open(dir, 'job_2', fixed).resumeOwnThread(dropUnanswered)).toBe(false);
  });

  it('a resumed thread never sends an empty assistant message: one recorded with content null gets (empty reply)', () => {
    const kept = dropUnanswered([
      { role: 'user', content: 'task' },
      { role: 'assistant', content: null },
      { role: 'user', content: 'go on' },
    ]);
    expect(kept[1]).toEqual({ role: 'assistant', content: '(empty reply)' });
  });

  it('P6.17 P6.18 P6.19 dropUnanswered removes calls without results, orphan results and empty assistants', () => {
    expect(
      dropUnanswered([
        { role: 'system', content: 's' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'x', type: 'function', function: { name: 'f', arguments: '' } }],
        },
        { role: 'tool', tool_call_id: 'orphan', content: 'r' },
        {
          role: 'assistant',
          content: 'text stays',
          tool_calls: [{ id: 'y', type: 'function', function: { name: 'f', arguments: '' } }],
        },
      ]),
    ).toEqual([
      { role: 'system', content: 's' },
      { role: 'assistant', content: 'text stays' },
    ]);
  });
});

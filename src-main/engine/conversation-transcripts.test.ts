// The Conversation over the transcript its store chooses (jobs/transcripts.ts), on both dialects: alone on SQLite the
// file in runs/{taskId}/ (and no row), on a shared PostgreSQL database its rows (and no file) — appended a row per
// chunk without touching the earlier ones, replaced atomically, kept at named points, read the same from another
// host's connection, and gone with the task.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { insertTask, storeDialects, tempStore, useStoreDialect } from '../../test-support/db';
import { tempDir } from '../../test-support/temp-maestro';
import type { Store } from '../db/store';
import { taskTranscript } from '../jobs/transcripts';
import { dropUnanswered } from './call-pairs';
import { Conversation, parseTranscript, splitThreads } from './conversation';
import { TRANSCRIPT_FILE } from './transcripts';

const fixed = () => new Date('2026-11-29T00:00:00.000Z');

/** The task's transcript rows, oldest first. */
const rows = (store: Store, taskId: string) =>
  store.db.prepare('SELECT seq, body FROM transcript_chunks WHERE task_id = ? ORDER BY seq').all(taskId) as {
    seq: number;
    body: string;
  }[];

describe.each(storeDialects())('a task’s transcript where its store keeps it (%s)', (dialect) => {
  useStoreDialect(dialect);
  const shared = dialect === 'postgres';

  function setup() {
    const store = tempStore();
    const taskId = insertTask(store);
    const dir = path.join(tempDir(), 'runs', taskId);
    const open = (jobId: string) => Conversation.open(taskTranscript(store, dir, taskId), jobId, fixed);
    const text = () => taskTranscript(store, dir, taskId).read();
    return { store, taskId, dir, open, text };
  }

  it('P6.25 P4.39 an append is stored when it returns, one chunk, the earlier text (and rows) untouched', () => {
    const { store, taskId, dir, open, text } = setup();
    const c = open('job_1');
    c.seed('SYS', 'USER');
    const before = text();
    const rowsBefore = rows(store, taskId);
    c.append({ role: 'assistant', content: 'hi' }, { role: 'tool', tool_call_id: 'c1', content: 'result' });
    const after = text();
    expect(after.startsWith(before)).toBe(true);
    expect(parseTranscript(after).map((l) => [l.jobId, l.message.role])).toEqual([
      ['job_1', 'system'],
      ['job_1', 'user'],
      ['job_1', 'assistant'],
      ['job_1', 'tool'],
    ]);
    expect(parseTranscript(after).map((l) => JSON.stringify(l))).toEqual(after.trimEnd().split('\n'));
    if (shared) {
      // One row more, the earlier ones as they were: an append never reads or rewrites the text before it.
      expect(rows(store, taskId).slice(0, rowsBefore.length)).toEqual(rowsBefore);
      expect(rows(store, taskId)).toHaveLength(rowsBefore.length + 1);
      expect(rows(store, taskId).at(-1)?.body).toBe(after.slice(before.length));
      expect(fs.existsSync(path.join(dir, TRANSCRIPT_FILE))).toBe(false);
    } else {
      expect(rowsBefore).toEqual([]);
      expect(rows(store, taskId)).toEqual([]);
      expect(fs.readFileSync(path.join(dir, TRANSCRIPT_FILE), 'utf8')).toBe(after);
    }
    c.close();
  });

  it('P4.39 a step is one append: what asOneStep records is stored when it returns, not before', () => {
    const { store, taskId, open, text } = setup();
    const c = open('job_1');
    c.seed('SYS', 'USER');
    const before = text();
    const seen: string[] = [];
    c.asOneStep(() => {
      c.append({ role: 'tool', tool_call_id: 'a', content: 'one' });
      c.append({ role: 'tool', tool_call_id: 'b', content: 'two' });
      seen.push(text());
    });
    expect(seen).toEqual([before]);
    expect(parseTranscript(text()).map((l) => l.message.content)).toEqual(['SYS', 'USER', 'one', 'two']);
    if (shared) expect(rows(store, taskId)).toHaveLength(2);
  });

  it("P6.26 P6.27 rewrite() replaces the text at once and keeps earlier jobs' threads; a new job appends a thread", () => {
    const { store, taskId, open, text } = setup();
    open('job_1').seed('SYS', 'one');
    const c = open('job_2');
    c.seed('SYS', 'two');
    c.append({ role: 'assistant', content: 'long answer' });
    c.rewrite([
      { role: 'system', content: 'SYS' },
      { role: 'user', content: 'two (compacted)' },
    ]);
    const lines = parseTranscript(text());
    expect(lines.map((l) => [l.jobId, l.message.content])).toEqual([
      ['job_1', 'SYS'],
      ['job_1', 'one'],
      ['job_2', 'SYS'],
      ['job_2', 'two (compacted)'],
    ]);
    expect(splitThreads(lines)).toHaveLength(2);
    // The rewrite left one row: the chunks before it are gone with it.
    if (shared) expect(rows(store, taskId).map((r) => r.body)).toEqual([text()]);
  });

  it('a replace that fails part way (its transaction rolled back) leaves the old text whole', () => {
    const { store, taskId, dir, open, text } = setup();
    const c = open('job_1');
    c.seed('SYS', 'USER');
    const before = text();
    expect(() =>
      store.transact(() => {
        taskTranscript(store, dir, taskId).replace('{"replaced":true}\n');
        throw new Error('the host fell over mid-replace');
      }),
    ).toThrow(/fell over/);
    // Files are not part of a transaction; the database's rows are.
    if (shared) expect(text()).toBe(before);
  });

  it('P7.13 the same job coming back continues its own thread, from another host’s connection on a shared database', () => {
    const { store, taskId, dir, open } = setup();
    const c = open('job_1');
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
    // Another host: its own connection to the same database (on SQLite, the same host again).
    const other = shared ? tempStore(store.db.name) : store;
    const again = Conversation.open(taskTranscript(other, dir, taskId), 'job_1', fixed);
    expect(again.resumeOwnThread(dropUnanswered)).toBe(true);
    expect(again.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(Conversation.open(taskTranscript(other, dir, taskId), 'job_2', fixed).resumeOwnThread(dropUnanswered)).toBe(
      false,
    );
    expect(taskTranscript(store, dir, taskId).read()).toBe(taskTranscript(other, dir, taskId).read());
  });

  it('P9.21 a kept point is the text as it was then, read back byte for byte; an unknown name is null', async () => {
    const { store, taskId, dir, open, text } = setup();
    const transcript = taskTranscript(store, dir, taskId);
    expect(transcript.kept('1')).toBeNull();
    await transcript.keep('1');
    expect(transcript.kept('1')).toBe('');
    const c = open('job_1');
    c.seed('SYS', 'é ü 日本語 \u2028 "quoted"');
    const atTwo = text();
    await transcript.keep('2');
    c.append({ role: 'assistant', content: 'later' });
    expect(transcript.kept('2')).toBe(atTwo);
    // Kept again under the same name (a rewind run again after a crash): the newer text.
    await transcript.keep('2');
    expect(transcript.kept('2')).toBe(text());
    expect(transcript.kept('3')).toBeNull();
    if (shared) expect(fs.existsSync(dir)).toBe(false);
  });

  it('deleting the task removes its transcript rows and points, and no other task’s', async () => {
    const { store, taskId, dir, open } = setup();
    const otherTask = insertTask(store);
    open('job_1').seed('SYS', 'mine');
    await taskTranscript(store, dir, taskId).keep('1');
    // Rows of both tasks, whatever the dialect (SQLite has the tables too), so removal is checked on both.
    store.transcripts.append(taskId, 'x\n');
    store.transcripts.keep(taskId, 'r');
    store.transcripts.append(otherTask, 'theirs\n');
    store.transcripts.keep(otherTask, '1');
    store.transact(() => store.tasks.removeTrees([taskId]));
    const count = (table: string, id: string) =>
      (store.db.prepare(`SELECT count(*) AS n FROM ${table} WHERE task_id = ?`).get(id) as { n: number }).n;
    expect([count('transcript_chunks', taskId), count('transcript_points', taskId)]).toEqual([0, 0]);
    expect(store.transcripts.text(otherTask)).toBe('theirs\n');
    expect(store.transcripts.kept(otherTask, '1')).toBe('theirs\n');
  });
});

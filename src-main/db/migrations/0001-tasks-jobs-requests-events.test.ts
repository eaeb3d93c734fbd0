// Migration 1 on an empty file: its tables, STRICT typing, CHECK constraints and foreign keys.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp-maestro';
import { migrate } from './index';

function emptyDb(): Database.Database {
  const db = new Database(path.join(tempDir(), 'maestro.db'));
  db.pragma('foreign_keys = ON');
  return db;
}

const TASK = `INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at)
              VALUES ('t', 't', 'i', 'p', '/w', 'persistent', 1)`;

describe('migration 1 (from an empty file)', () => {
  it('creates its tables as STRICT and sets user_version to 1', () => {
    const db = emptyDb();
    expect(db.pragma('user_version', { simple: true })).toBe(0);
    expect(migrate(db, 1)).toEqual([1]);
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    const tables = (db.pragma('table_list') as { name: string; strict: number; schema: string }[])
      .filter((t) => t.schema === 'main' && !t.name.startsWith('sqlite_'))
      .sort((a, b) => a.name.localeCompare(b.name));
    expect(tables.map((t) => [t.name, t.strict])).toEqual([
      ['comments', 1],
      ['events', 1],
      ['jobs', 1],
      ['package_requests', 1],
      ['tasks', 1],
      ['tool_requests', 1],
    ]);
    expect(migrate(db, 1)).toEqual([]);
    db.close();
  });

  it('takes a row of each table, and numbers events from 1 up', () => {
    const db = emptyDb();
    migrate(db, 1);
    db.exec(`${TASK};
      INSERT INTO jobs (id, task_id, created_at, updated_at, status, piece_id, pending_invoke)
        VALUES ('j', 't', 1, 1, 'queued', 'p', 'UserSend');
      INSERT INTO comments (id, task_id, job_id, author, kind, body, created_at)
        VALUES ('c', 't', 'j', 'user', 'interjection', 'b', 1);
      INSERT INTO tool_requests (id, task_id, job_id, call_id, tool, args_json, summary, status, scope, created_at)
        VALUES ('r', 't', 'j', 'call', 'run_command', '{}', 's', 'approved', 'task', 1);
      INSERT INTO package_requests (id, task_id, job_id, call_id, manager, name, reason, status, created_at)
        VALUES ('p', 't', 'j', 'call', 'pip', 'x', 'r', 'pending', 1);`);
    const event = db.prepare(`INSERT INTO events (ts, type, task_id, payload) VALUES (1, 'x', 't', '{}')`);
    expect([event.run().lastInsertRowid, event.run().lastInsertRowid]).toEqual([1, 2]);
    expect(
      db.prepare(`SELECT job_id FROM comments WHERE kind = 'interjection' AND delivered_at IS NULL`).all(),
    ).toEqual([{ job_id: 'j' }]);
    db.close();
  });

  it('STRICT rejects a value of the wrong type', () => {
    const db = emptyDb();
    migrate(db, 1);
    expect(() => db.exec(TASK.replace(', 1)', ", 'yesterday')"))).toThrow(/cannot store TEXT value in INTEGER column/);
    db.close();
  });

  it('CHECK constraints reject bad statuses, waiting_human without wait_reason, retry without next_retry_at (A#4)', () => {
    const db = emptyDb();
    migrate(db, 1);
    db.exec(TASK);
    const insertJob = db.prepare(
      `INSERT INTO jobs (id, task_id, created_at, updated_at, status, wait_reason, next_retry_at, piece_id)
       VALUES (@id, 't', 1, 1, @status, @waitReason, @nextRetryAt, 'p')`,
    );
    const job = (status: string, waitReason: string | null = null, nextRetryAt: number | null = null) =>
      insertJob.run({ id: `j-${status}-${waitReason}-${nextRetryAt}`, status, waitReason, nextRetryAt });
    expect(() => job('paused')).toThrow(/CHECK constraint failed/);
    expect(() => job('waiting_human')).toThrow(/CHECK constraint failed/);
    expect(() => job('waiting_human', 'sleeping')).toThrow(/CHECK constraint failed/);
    expect(() => job('queued', 'ask')).toThrow(/CHECK constraint failed/);
    expect(() => job('retry')).toThrow(/CHECK constraint failed/);
    expect(() => job('queued', null, 5)).toThrow(/CHECK constraint failed/);
    job('waiting_human', 'tool_request');
    job('retry', null, 5);
    job('queued');
    expect(db.prepare('SELECT count(*) AS n FROM jobs').get()).toEqual({ n: 3 });
    const rejected = [
      `INSERT INTO comments (id, task_id, author, kind, body, created_at) VALUES ('c', 't', 'bot', 'comment', 'b', 1)`,
      `INSERT INTO comments (id, task_id, author, kind, body, created_at) VALUES ('c', 't', 'user', 'chat', 'b', 1)`,
      TASK.replace("'t', 't'", "'t2', 't'").replace("'persistent'", "'cloud'"),
      `INSERT INTO package_requests (id, task_id, job_id, call_id, manager, name, reason, status, created_at)
       VALUES ('p', 't', 'j-queued-null-null', 'c', 'cargo', 'x', 'r', 'pending', 1)`,
      `INSERT INTO tool_requests (id, task_id, job_id, call_id, tool, args_json, summary, status, created_at)
       VALUES ('r', 't', 'j-queued-null-null', 'c', 'run_command', '{}', 's', 'maybe', 1)`,
      `INSERT INTO tool_requests (id, task_id, job_id, call_id, tool, args_json, summary, status, scope, created_at)
       VALUES ('r', 't', 'j-queued-null-null', 'c', 'run_command', '{}', 's', 'approved', 'forever', 1)`,
    ];
    for (const sql of rejected) expect(() => db.exec(sql), sql).toThrow(/CHECK constraint failed/);
    db.close();
  });

  it('foreign keys reject a job of an unknown task and a comment of an unknown job', () => {
    const db = emptyDb();
    migrate(db, 1);
    expect(() =>
      db.exec(`INSERT INTO jobs (id, task_id, created_at, updated_at, status, piece_id)
               VALUES ('j', 'nope', 1, 1, 'queued', 'p')`),
    ).toThrow(/FOREIGN KEY constraint failed/);
    db.exec(TASK);
    expect(() =>
      db.exec(`INSERT INTO comments (id, task_id, job_id, author, kind, body, created_at)
               VALUES ('c', 't', 'nope', 'user', 'comment', 'b', 1)`),
    ).toThrow(/FOREIGN KEY constraint failed/);
    db.close();
  });
});

// Migration 16 on a version-15 file with jobs in every state and rows pointing at them (comments, requests, log
// entries, an A2A task, parent and continued jobs): every row kept, wait_reason 'settings' now taken, the rest of the
// CHECKs, foreign keys and indexes as they were.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp-maestro';
import { migrate } from './index';

const TABLES = ['tasks', 'jobs', 'comments', 'tool_requests', 'log_entries', 'a2a_tasks', 'a2a_messages'];
const everyRow = (db: Database.Database) =>
  Object.fromEntries(TABLES.map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all()]));
const indexes = (db: Database.Database) =>
  db.prepare(`SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'jobs' ORDER BY name`).all();

describe('migration 16 (from version 15 with data in it)', () => {
  it('keeps every row of version 15, their links and the indexes of jobs, and lets a job wait on settings', () => {
    const db = new Database(path.join(tempDir(), 'maestro.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, 15);
    db.exec(`
      INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at, piece_choice)
        VALUES ('t', 'title', 'i', 'default', '/repo', 'persistent', 1, 'given');
      INSERT INTO jobs (id, task_id, created_at, updated_at, status, piece_id, pending_invoke, error, error_code, finished_at)
        VALUES ('j1', 't', 1, 2, 'failed', 'default', NULL, 'refused', 'profile_key_refused', 2);
      INSERT INTO jobs (id, task_id, created_at, updated_at, status, wait_reason, piece_id, pending_invoke, continued_from_job_id)
        VALUES ('j2', 't', 3, 3, 'waiting_human', 'tool_request', 'default', NULL, 'j1');
      INSERT INTO jobs (id, task_id, created_at, updated_at, status, piece_id, next_retry_at, parent_job_id)
        VALUES ('j3', 't', 4, 4, 'retry', 'default', 9, 'j2');
      INSERT INTO comments (id, task_id, job_id, author, kind, body, created_at) VALUES ('m', 't', 'j2', 'user', 'instruction', 'i', 1);
      INSERT INTO tool_requests (id, task_id, job_id, tool, args_json, summary, status, created_at, call_id)
        VALUES ('r', 't', 'j2', 'run_command', '{}', 'ls', 'pending', 3, 'c1');
      INSERT INTO log_entries (task_id, job_id, kind, ts, invoke_kind) VALUES ('t', 'j2', 'Invoke', 3, 'UserSend');
      INSERT INTO a2a_tasks (id, context_id, task_id, first_job_id, created_at) VALUES ('a', 'ctx', 't', 'j2', 3);
      INSERT INTO a2a_messages (comment_id, message_id) VALUES ('m', 'msg-1');
    `);
    const before = everyRow(db);
    const indexesBefore = indexes(db);

    expect(migrate(db, 16)).toEqual([16]);
    expect(everyRow(db)).toEqual(before);
    expect(indexes(db)).toEqual(indexesBefore);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect((db.pragma('table_list') as { name: string; strict: number }[]).find((t) => t.name === 'jobs')?.strict).toBe(
      1,
    );
    expect(db.prepare(`SELECT count(*) AS n FROM sqlite_temp_schema`).get()).toEqual({ n: 0 });

    const wait = db.prepare(
      `UPDATE jobs SET status = 'waiting_human', wait_reason = ?, next_retry_at = NULL WHERE id = 'j3'`,
    );
    expect(() => wait.run('not_a_reason')).toThrow(/CHECK constraint failed/);
    expect(() => db.prepare(`UPDATE jobs SET wait_reason = NULL WHERE id = 'j2'`).run()).toThrow(/CHECK constraint/);
    expect(wait.run('settings').changes).toBe(1);
    expect(() =>
      db
        .prepare(
          `INSERT INTO jobs (id, task_id, created_at, updated_at, status, piece_id) VALUES (?, ?, 1, 1, 'queued', 'p')`,
        )
        .run('j4', 'no-such-task'),
    ).toThrow(/FOREIGN KEY/);
    expect(() => db.prepare(`DELETE FROM jobs WHERE id = 'j1'`).run()).toThrow(/FOREIGN KEY/);
    // The A2A task still goes with its first job.
    db.exec(`DELETE FROM log_entries; DELETE FROM tool_requests; DELETE FROM a2a_messages; DELETE FROM comments;
             DELETE FROM jobs WHERE id = 'j3'; DELETE FROM jobs WHERE id = 'j2'`);
    expect(db.prepare('SELECT count(*) AS n FROM a2a_tasks').get()).toEqual({ n: 0 });
    db.close();
  });
});

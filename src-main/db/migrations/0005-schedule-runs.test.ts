// Migration 5 on a version-4 file with tasks, jobs and spaces: the Scheduler's state per schedule.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp-maestro';
import { migrate } from './index';

const TABLES = ['comments', 'events', 'jobs', 'log_entries', 'package_requests', 'spaces', 'tasks', 'tool_requests'];

const everyRow = (db: Database.Database) => TABLES.map((t) => db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all());

describe('migration 5 (from version 4 with data in it)', () => {
  it('keeps every row of version 4 and adds schedule_runs, STRICT, tied to real tasks, one row per schedule', () => {
    const db = new Database(path.join(tempDir(), 'maestro.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, 4);
    db.exec(`
      INSERT INTO spaces (id, name, folder, created_at) VALUES ('s', 'repo', '/repo', 1);
      INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at, space_id, piece_choice)
        VALUES ('t', 'nightly', 'i', 'default', '/repo', 'persistent', 1, 's', 'routed');
      INSERT INTO jobs (id, task_id, created_at, updated_at, status, wait_reason, piece_id, pending_invoke)
        VALUES ('j', 't', 1, 2, 'waiting_human', 'tool_request', 'default', 'Wakeup');
      INSERT INTO tool_requests (id, task_id, job_id, call_id, tool, args_json, summary, status, created_at)
        VALUES ('r', 't', 'j', 'call', 'run_command', '{"cmd":"ls"}', 'ls', 'pending', 2);
      INSERT INTO comments (id, task_id, job_id, author, kind, body, created_at) VALUES ('c', 't', 'j', 'system', 'instruction', 'b', 1);
      INSERT INTO events (ts, type, task_id, job_id, payload) VALUES (1, 'task.created', 't', NULL, '{}');
      INSERT INTO log_entries (task_id, job_id, kind, ts, invoke_kind) VALUES ('t', 'j', 'Invoke', 1, 'Wakeup');
    `);
    const before = everyRow(db);

    expect(migrate(db, 5)).toEqual([5]);
    expect(everyRow(db)).toEqual(before);
    expect(
      (db.pragma('table_list') as { name: string; strict: number }[]).find((t) => t.name === 'schedule_runs')?.strict,
    ).toBe(1);

    const run = db.prepare(
      'INSERT INTO schedule_runs (schedule_id, next_run_at, last_run_at, last_task_id, last_error) VALUES (?, ?, ?, ?, ?)',
    );
    run.run('nightly', 2000, 1000, 't', null);
    run.run('hourly', 3000, null, null, null);
    expect(() => run.run('nightly', 4000, null, null, null)).toThrow(
      /UNIQUE constraint failed: schedule_runs.schedule_id/,
    );
    expect(() => run.run('weekly', 4000, null, 'nope', null)).toThrow(/FOREIGN KEY constraint failed/);
    expect(() => run.run('weekly', null, null, null, null)).toThrow(
      /NOT NULL constraint failed: schedule_runs.next_run_at/,
    );
    expect(() => run.run('weekly', 'tomorrow', null, null, null)).toThrow(/cannot store TEXT value in INTEGER column/);
    expect(db.prepare('SELECT schedule_id, last_task_id FROM schedule_runs ORDER BY schedule_id').all()).toEqual([
      { schedule_id: 'hourly', last_task_id: null },
      { schedule_id: 'nightly', last_task_id: 't' },
    ]);
    db.close();
  });
});

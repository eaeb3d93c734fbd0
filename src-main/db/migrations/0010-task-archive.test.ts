// Migration 10 on a version-9 file with a task and its subtask: archived_at on tasks, empty.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp-maestro';
import { migrate } from './index';

const TABLES = ['comments', 'events', 'jobs', 'tool_requests'];
const everyRow = (db: Database.Database, tables: string[]) =>
  tables.map((t) => db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all());

describe('migration 10 (from version 9 with data in it)', () => {
  it('keeps every row of version 9 and adds archived_at (null, INTEGER only) to tasks', () => {
    const db = new Database(path.join(tempDir(), 'maestro.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, 9);
    db.exec(`
      INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at, piece_choice)
        VALUES ('t', 'parent', 'i', 'default', '/repo', 'persistent', 1, 'routed');
      INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, parent_task_id, created_at)
        VALUES ('c', 'child', 'i', 'default', '/repo', 'persistent', 't', 2);
      INSERT INTO jobs (id, task_id, created_at, updated_at, status, wait_reason, piece_id, pending_invoke)
        VALUES ('j', 't', 1, 2, 'waiting_human', 'tool_request', 'default', 'UserSend');
      INSERT INTO tool_requests (id, task_id, job_id, call_id, tool, args_json, summary, status, created_at, deny_reason)
        VALUES ('r', 't', 'j', 'call_1', 'run_command', '{"command":"ls"}', 'ls', 'denied', 2, 'not now');
      INSERT INTO comments (id, task_id, job_id, author, kind, body, created_at) VALUES ('m', 't', 'j', 'user', 'instruction', 'b', 1);
      INSERT INTO events (ts, type, task_id, job_id, payload) VALUES (1, 'task.created', 't', NULL, '{}');
    `);
    const before = everyRow(db, TABLES);
    const tasksBefore = db.prepare('SELECT * FROM tasks ORDER BY id').all();

    expect(migrate(db, 10)).toEqual([10]);
    expect(everyRow(db, TABLES)).toEqual(before);
    expect(db.prepare('SELECT * FROM tasks ORDER BY id').all()).toEqual(
      tasksBefore.map((row) => ({ ...(row as object), archived_at: null })),
    );
    expect(
      (db.pragma('table_list') as { name: string; strict: number }[]).find((t) => t.name === 'tasks')?.strict,
    ).toBe(1);
    const archive = db.prepare('UPDATE tasks SET archived_at = ? WHERE id = ?');
    expect(() => archive.run('yesterday', 't')).toThrow(/cannot store TEXT value in INTEGER column/);
    expect(archive.run(5, 'c').changes).toBe(1);
    expect(db.prepare('SELECT id, archived_at FROM tasks ORDER BY id').all()).toEqual([
      { id: 'c', archived_at: 5 },
      { id: 't', archived_at: null },
    ]);
    db.close();
  });
});

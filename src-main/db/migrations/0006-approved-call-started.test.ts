// Migration 6 on a version-5 file with decided and pending requests: started_at on both request tables, empty.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp-maestro';
import { migrate } from './index';

const TABLES = ['comments', 'events', 'jobs', 'log_entries', 'schedule_runs', 'spaces', 'tasks'];

const everyRow = (db: Database.Database, tables: string[]) =>
  tables.map((t) => db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all());

describe('migration 6 (from version 5 with data in it)', () => {
  it('keeps every row of version 5 and adds started_at (null, INTEGER only) to tool_requests and package_requests', () => {
    const db = new Database(path.join(tempDir(), 'maestro.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, 5);
    db.exec(`
      INSERT INTO spaces (id, name, folder, created_at) VALUES ('s', 'repo', '/repo', 1);
      INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at, space_id, piece_choice)
        VALUES ('t', 'title', 'i', 'default', '/repo', 'persistent', 1, 's', 'routed');
      INSERT INTO jobs (id, task_id, created_at, updated_at, status, wait_reason, piece_id, pending_invoke)
        VALUES ('j', 't', 1, 2, 'queued', NULL, 'default', 'Wakeup');
      INSERT INTO tool_requests (id, task_id, job_id, call_id, tool, args_json, summary, status, scope, created_at, decided_at)
        VALUES ('r1', 't', 'j', 'call_1', 'run_command', '{"command":"ls"}', 'ls', 'approved', 'once', 2, 3),
               ('r2', 't', 'j', 'call_2', 'run_command', '{"command":"pwd"}', 'pwd', 'pending', NULL, 4, NULL);
      INSERT INTO package_requests (id, task_id, job_id, call_id, manager, name, version, reason, status, created_at, decided_at)
        VALUES ('p1', 't', 'j', 'call_3', 'npm', 'left-pad', '1.3.0', 'pads', 'approved', 5, 6);
      INSERT INTO comments (id, task_id, job_id, author, kind, body, created_at) VALUES ('c', 't', 'j', 'system', 'instruction', 'b', 1);
      INSERT INTO events (ts, type, task_id, job_id, payload) VALUES (1, 'task.created', 't', NULL, '{}');
      INSERT INTO schedule_runs (schedule_id, next_run_at, last_run_at, last_task_id, last_error) VALUES ('n', 9, NULL, 't', NULL);
    `);
    const before = everyRow(db, TABLES);
    const requestsBefore = everyRow(db, ['tool_requests', 'package_requests']);

    expect(migrate(db, 6)).toEqual([6]);
    expect(everyRow(db, TABLES)).toEqual(before);
    // The old columns are as they were; every request has started_at null (none had started as far as we know).
    expect(everyRow(db, ['tool_requests', 'package_requests'])).toEqual(
      requestsBefore.map((rows) => rows.map((row) => ({ ...(row as object), started_at: null }))),
    );
    for (const table of ['tool_requests', 'package_requests']) {
      expect(
        (db.pragma('table_list') as { name: string; strict: number }[]).find((t) => t.name === table)?.strict,
      ).toBe(1);
      const set = db.prepare(`UPDATE ${table} SET started_at = ? WHERE status = 'approved'`);
      expect(() => set.run('soon')).toThrow(/cannot store TEXT value in INTEGER column/);
      expect(set.run(7).changes).toBe(1);
    }
    expect(db.prepare('SELECT id, started_at FROM tool_requests ORDER BY id').all()).toEqual([
      { id: 'r1', started_at: 7 },
      { id: 'r2', started_at: null },
    ]);
    db.close();
  });
});

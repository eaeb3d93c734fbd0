// Migration 7 on a version-6 file with decided and pending requests: deny_reason on both request tables, empty.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp-maestro';
import { migrate } from './index';

describe('migration 7 (from version 6 with data in it)', () => {
  it('keeps every request of version 6 and adds deny_reason (null, TEXT only) to tool_requests and package_requests', () => {
    const db = new Database(path.join(tempDir(), 'maestro.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, 6);
    db.exec(`
      INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at, piece_choice)
        VALUES ('t', 'title', 'i', 'default', '/repo', 'persistent', 1, 'routed');
      INSERT INTO jobs (id, task_id, created_at, updated_at, status, wait_reason, piece_id, pending_invoke)
        VALUES ('j', 't', 1, 2, 'queued', NULL, 'default', 'Wakeup');
      INSERT INTO tool_requests (id, task_id, job_id, call_id, tool, args_json, summary, status, scope, created_at, decided_at, started_at)
        VALUES ('r1', 't', 'j', 'call_1', 'run_command', '{"command":"ls"}', 'ls', 'denied', NULL, 2, 3, NULL),
               ('r2', 't', 'j', 'call_2', 'run_command', '{"command":"pwd"}', 'pwd', 'approved', 'once', 4, 5, 6);
      INSERT INTO package_requests (id, task_id, job_id, call_id, manager, name, version, reason, status, created_at, decided_at)
        VALUES ('p1', 't', 'j', 'call_3', 'npm', 'left-pad', '1.3.0', 'pads', 'denied', 5, 6);
    `);
    const before = ['tool_requests', 'package_requests'].map((t) => db.prepare(`SELECT * FROM ${t} ORDER BY id`).all());

    expect(migrate(db, 7)).toEqual([7]);
    expect(
      ['tool_requests', 'package_requests'].map((t) => db.prepare(`SELECT * FROM ${t} ORDER BY id`).all()),
    ).toEqual(before.map((rows) => rows.map((row) => ({ ...(row as object), deny_reason: null }))));
    for (const table of ['tool_requests', 'package_requests']) {
      const set = db.prepare(`UPDATE ${table} SET deny_reason = ? WHERE status = 'denied'`);
      expect(() => set.run(Buffer.from('x'))).toThrow(/cannot store BLOB value in TEXT column/);
      expect(set.run('not on main').changes).toBe(1);
    }
    expect(db.prepare('SELECT id, deny_reason FROM tool_requests ORDER BY id').all()).toEqual([
      { id: 'r1', deny_reason: 'not on main' },
      { id: 'r2', deny_reason: null },
    ]);
    db.close();
  });
});

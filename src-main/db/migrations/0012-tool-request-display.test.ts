// Migration 12 on a version-11 file with a request: display_json on tool_requests, empty, JSON only.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp-maestro';
import { migrate } from './index';

describe('migration 12 (from version 11 with data in it)', () => {
  it('keeps every request of version 11 and adds display_json (null, valid JSON only) to tool_requests', () => {
    const db = new Database(path.join(tempDir(), 'maestro.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, 11);
    db.exec(`
      INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at, piece_choice)
        VALUES ('t', 'title', 'i', 'default', '/repo', 'persistent', 1, 'routed');
      INSERT INTO jobs (id, task_id, created_at, updated_at, status, wait_reason, piece_id, pending_invoke)
        VALUES ('j', 't', 1, 2, 'queued', NULL, 'default', 'Wakeup');
      INSERT INTO tool_requests (id, task_id, job_id, call_id, tool, args_json, summary, status, scope, created_at, decided_at, started_at)
        VALUES ('r1', 't', 'j', 'call_1', 'run_command', '{"command":"ls"}', '$ ls', 'pending', NULL, 2, NULL, NULL);
    `);
    const before = db.prepare('SELECT * FROM tool_requests').all();
    expect(migrate(db, 12)).toEqual([12]);
    expect(db.prepare('SELECT * FROM tool_requests').all()).toEqual(
      before.map((row) => ({ ...(row as object), display_json: null })),
    );
    const set = db.prepare('UPDATE tool_requests SET display_json = ?');
    expect(() => set.run('{not json')).toThrow(/CHECK constraint failed/);
    expect(set.run('{"kind":"command"}').changes).toBe(1);
    db.close();
  });
});

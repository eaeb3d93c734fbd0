// Migration 9 on a version-8 file with a failed and a queued job: error_code on jobs, empty, TEXT only.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp-maestro';
import { migrate } from './index';

describe('migration 9 (from version 8 with data in it)', () => {
  it('keeps every job of version 8 and adds error_code (null, TEXT only) to jobs', () => {
    const db = new Database(path.join(tempDir(), 'maestro.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, 8);
    db.exec(`
      INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at, piece_choice)
        VALUES ('t', 'title', 'i', 'default', '/repo', 'persistent', 1, 'routed');
      INSERT INTO jobs (id, task_id, created_at, updated_at, status, piece_id, pending_invoke, error, finished_at)
        VALUES ('j1', 't', 1, 2, 'failed', 'default', NULL, 'LLM: LLM request refused: 401', 2);
      INSERT INTO jobs (id, task_id, created_at, updated_at, status, piece_id, pending_invoke)
        VALUES ('j2', 't', 3, 3, 'queued', 'default', 'UserSend');
    `);
    const before = db.prepare('SELECT * FROM jobs ORDER BY id').all();

    expect(migrate(db, 9)).toEqual([9]);
    expect(db.prepare('SELECT * FROM jobs ORDER BY id').all()).toEqual(
      before.map((row) => ({ ...(row as object), error_code: null })),
    );
    const set = db.prepare(`UPDATE jobs SET error_code = ? WHERE id = 'j1'`);
    expect(() => set.run(Buffer.from('x'))).toThrow(/cannot store BLOB value in TEXT column/);
    expect(set.run('profile_key_refused').changes).toBe(1);
    expect(db.prepare('SELECT id, error_code FROM jobs ORDER BY id').all()).toEqual([
      { id: 'j1', error_code: 'profile_key_refused' },
      { id: 'j2', error_code: null },
    ]);
    db.close();
  });
});

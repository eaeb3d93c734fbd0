// Migration 13 on a version-12 file with a comment: notice_json on comments, empty, JSON only.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp-maestro';
import { migrate } from './index';

describe('migration 13 (from version 12 with data in it)', () => {
  it('keeps every comment of version 12 and adds notice_json (null, valid JSON only) to comments', () => {
    const db = new Database(path.join(tempDir(), 'maestro.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, 12);
    db.exec(`
      INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at, piece_choice)
        VALUES ('t', 'title', 'i', 'default', '/repo', 'persistent', 1, 'routed');
      INSERT INTO jobs (id, task_id, created_at, updated_at, status, wait_reason, piece_id, pending_invoke)
        VALUES ('j', 't', 1, 2, 'queued', NULL, 'default', 'Wakeup');
      INSERT INTO comments (id, task_id, job_id, author, kind, body, created_at)
        VALUES ('c1', 't', 'j', 'system', 'comment', 'Cancelled.', 3);
    `);
    const before = db.prepare('SELECT * FROM comments').all();
    expect(migrate(db, 13)).toEqual([13]);
    expect(db.prepare('SELECT * FROM comments').all()).toEqual(
      before.map((row) => ({ ...(row as object), notice_json: null })),
    );
    const set = db.prepare('UPDATE comments SET notice_json = ?');
    expect(() => set.run('{not json')).toThrow(/CHECK constraint failed/);
    expect(set.run('{"code":"cancelled","subtasks":0}').changes).toBe(1);
    db.close();
  });
});

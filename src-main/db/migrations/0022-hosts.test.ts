// Migration 22 on a version-21 file with a task and its jobs: every row kept, each job's host null, hosts empty and
// its serves checked as a JSON array.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp-maestro';
import { migrate } from './index';

describe('migration 22 (from version 21 with data in it)', () => {
  it('keeps every job with a null host; hosts starts empty and refuses serves that is not an array', () => {
    const db = new Database(path.join(tempDir(), 'maestro.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, 21);
    db.exec(`
      INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at, piece_choice)
        VALUES ('t', 'title', 'i', 'default', '/repo', 'persistent', 1, 'given');
      INSERT INTO jobs (id, task_id, created_at, updated_at, status, piece_id) VALUES ('j1', 't', 1, 2, 'succeeded', 'default');
      INSERT INTO jobs (id, task_id, created_at, updated_at, status, piece_id) VALUES ('j2', 't', 3, 4, 'queued', 'default');
    `);
    const before = db.prepare('SELECT * FROM jobs ORDER BY rowid').all() as Record<string, unknown>[];

    expect(migrate(db, 22)).toEqual([22]);
    const after = db.prepare('SELECT * FROM jobs ORDER BY rowid').all() as Record<string, unknown>[];
    expect(after).toEqual(before.map((job) => ({ ...job, host: null })));
    expect(db.prepare('SELECT count(*) AS n FROM hosts').get()).toEqual({ n: 0 });

    const put = db.prepare(
      'INSERT INTO hosts (name, version, started_at, last_seen_at, serves) VALUES (?, ?, 1, 1, ?)',
    );
    expect(() => put.run('a', '1.0.0', '{"dir":"/repo"}')).toThrow(/CHECK constraint failed/);
    expect(() => put.run('a', '1.0.0', 'not json')).toThrow(/CHECK constraint failed/);
    put.run('a', '1.0.0', '["/repo"]');
    expect(() => put.run('a', '1.0.0', '[]')).toThrow(/UNIQUE constraint failed/);
  });
});
